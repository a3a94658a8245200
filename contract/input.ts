import { z } from "zod";

/*
 * The building blocks of every request schema: input the database cannot take is refused here, at the
 * edge, with 400 validation_failed (docs/security.md, Input). PostgreSQL text cannot hold NUL and id columns
 * are int4, so a NUL or 2147483648 that got further answered 500 and put the failed query in the log.
 * web parses route parameters and search forms with the same blocks, so both refuse the same.
 */

/** The largest PostgreSQL integer (int4), the type of every id column. */
export const int4Max = 2_147_483_647;

export const controlCharacterMessage = "must not contain control characters";

// C0 control characters (NUL included), DEL and C1 (U+0080-U+009F: U+009B is a terminal's CSI, which an operator's
// report would otherwise print). Multi-line text keeps tab, line feed and carriage return (a textarea sends CRLF).
const singleLine = /^[^\u0000-\u001f\u007f-\u009f]*$/;
const multiLine = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/**
 * A text field of at most `max` characters without control characters; `trim` first (so a stray
 * trailing newline is forgiven, not refused), `multiline` for text areas, `min` after trimming.
 */
export function text(max: number, options: { min?: number; trim?: boolean; multiline?: boolean } = {}) {
  let schema = z.string();
  if (options.trim) schema = schema.trim();
  schema = schema.regex(options.multiline ? multiLine : singleLine, controlCharacterMessage);
  if (options.min !== undefined) schema = schema.min(options.min);
  return schema.max(max);
}

/** An id in a JSON body: a whole number from 1 to int4Max; a string or a list is not an id. */
export const id = z.number().int().min(1).max(int4Max);

/**
 * A whole number as a URL or a form gives it: a number, or a string of digits only (no "", "1e3", "0x10",
 * " 1", "1.5", "-1", no list from a repeated parameter), from `min` to `max`.
 */
export function wholeNumber(min: number, max: number) {
  return z.preprocess((value) => (typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : value), z.number().int().min(min).max(max));
}

/** An id in a query string or a route parameter (?id=12, /members/12). */
export const queryId = wholeNumber(1, int4Max);

/** An e-mail address, lower-cased; the address syntax already leaves no room for control characters. */
export const Email = z.string().trim().toLowerCase().email().max(254);

/** A new password: any characters a person can type (no control characters), 8 to 200 of them. */
export const Password = text(200, { min: 8 });

/**
 * A password to check against the stored hash (login, confirmations): only bounded, never restricted,
 * so a password set before these rules still works; it is hashed, never stored or put in SQL.
 */
export const CurrentPassword = z.string().min(1).max(200);

/** The token of a mailed link or a session: base64url, as the api issues them (randomBytes(32) is 43 characters). */
/** The key a staff form that books something carries, made when the page renders it: the api books one form once (a replay books nothing). */
export const FormKey = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "This form has no valid key: reload the page and send it again.");

export const LinkToken = z.string().regex(/^[A-Za-z0-9_-]{16,200}$/, "must be the token of the link");

/**
 * A calendar date (YYYY-MM-DD) from `from` to `to`, both included: year 0 (which PostgreSQL refuses) and other years no
 * one means are refused with `message`. `to` may be a function of today (a date of birth).
 */
export function dateBetween(from: string, to: string | (() => string), message: string) {
  return z.iso
    .date(message)
    .refine((value) => value >= from && value <= (typeof to === "function" ? to() : to), message);
}

const yearsAgo = (years: number) => {
  const today = new Date();
  return `${String(today.getUTCFullYear() - years).padStart(4, "0")}${today.toISOString().slice(4, 10)}`;
};

/** A date something ends or happens on: from 2000 to 2100. */
export const EventDate = dateBetween("2000-01-01", "2100-12-31", "A date from 2000-01-01 to 2100-12-31.");

/** A date of birth of someone 18 to 120 years old today. */
export const BirthDate = z.iso.date("A date of birth such as 1990-05-31.").refine((value) => value >= yearsAgo(120) && value <= yearsAgo(18), "A date of birth of someone 18 to 120 years old.");
