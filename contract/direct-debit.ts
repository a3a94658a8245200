import { z } from "zod";
import { electronicFormatIBAN, isSEPACountry, validateIBAN, ValidationErrorsIBAN } from "ibantools";
import { id, text } from "./input";
import { DiscountCodeInput } from "./discounts";

/*
 * Direct debit (docs/product.md §2 /directdebit, §3 Direct debit form: otp, account holder, iban, street,
 * house number, zip, city, phone). Messages are keys of the payments namespace's directDebit.errors: web
 * shows them in the member's language.
 *
 *   POST /api/directdebit.php          DirectDebitRequest -> DebitRequestResponse: checks the details, the
 *                                      member's limit and block, and sends a code by SMS.
 *   GET  /api/directdebit.php?request= DebitRequestQuery -> DebitRequestResponse: a request waiting for its code.
 *   POST /api/directdebit-code.php     DebitCodeResendRequest -> DebitRequestResponse: a new code (the old one stops working).
 *   POST /api/directdebit-confirm.php  DebitConfirmRequest -> DebitConfirmResponse: the right code creates the
 *                                      sdd payment (pending until the provider settles it) once.
 *
 * 400 validation_failed (fields), 403 debit_blocked ('Your account is blocked for direct debit payments.'),
 * 403 debit_limit ('Your limit for direct debit payments has been reached...'), 400 code_invalid ('Code invalid'),
 * 410 code_expired (a new code is needed: expired, or too many wrong tries).
 */

/** Why an IBAN is refused, for its message. */
export function ibanProblem(iban: string): "missing" | "country" | "length" | "format" | "checksum" | "sepa" | null {
  const electronic = electronicFormatIBAN(iban) ?? "";
  if (!electronic) return "missing";
  const result = validateIBAN(electronic);
  if (!result.valid) {
    const codes = result.errorCodes;
    if (codes.includes(ValidationErrorsIBAN.NoIBANCountry)) return "country";
    if (codes.includes(ValidationErrorsIBAN.WrongBBANLength)) return "length";
    if (codes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return "format";
    return "checksum";
  }
  if (!isSEPACountry(electronic.slice(0, 2))) return "sepa";
  return null;
}

export const Iban = z
  .string()
  .max(50, "iban.length")
  .transform((v) => electronicFormatIBAN(v) ?? "")
  .superRefine((v, ctx) => {
    const problem = ibanProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: `iban.${problem}` });
  });

/** A mobile number in international form: +, country code, 8 to 15 digits (spaces, dashes and brackets are dropped). */
export const Phone = z
  .string()
  .max(30, "phone.invalid")
  .transform((v) => v.replace(/[\s().-]/g, "").replace(/^00/, "+"))
  .refine((v) => /^\+[1-9]\d{7,14}$/.test(v), "phone.invalid");

const required = (max: number, key: string) => text(max, { min: 1 }).refine((v) => v.length > 0, `${key}.required`);

export const DirectDebitRequest = z.object({
  package_id: id,
  discount_code: DiscountCodeInput.optional(),
  account_holder: text(70, { min: 2 }).refine((v) => /\p{L}/u.test(v), "holder.invalid"),
  iban: Iban,
  street: required(100, "street"),
  house_number: text(20, { min: 1 }).refine((v) => /^\d/.test(v), "houseNumber.invalid"),
  zip: text(12, { min: 3 }).refine((v) => /^[A-Za-z0-9][A-Za-z0-9 -]{1,10}[A-Za-z0-9]$/.test(v), "zip.invalid"),
  city: required(80, "city"),
  phone: Phone,
});
export type DirectDebitRequest = z.infer<typeof DirectDebitRequest>;

export const DebitRequestQuery = z.object({ request: z.coerce.number().int().min(1).max(2_147_483_647) });
export const DebitCodeResendRequest = z.object({ request_id: id });
export const DebitConfirmRequest = z.object({ request_id: id, otp: z.string().trim().regex(/^\d{6}$/, "otp.format") });

export const DebitRequestResponse = z.object({
  request_id: z.number().int(),
  package_id: z.number().int(),
  credits: z.number().int(),
  /** What will be debited (minor units), the discount included. */
  amount: z.number().int(),
  currency: z.string(),
  iban_masked: z.string(),
  phone_masked: z.string(),
  code_expires_at: z.string(),
  tries_left: z.number().int(),
  /** The payment the confirmed code made (null while waiting). */
  payment_id: z.number().int().nullable(),
});
export type DebitRequestResponse = z.infer<typeof DebitRequestResponse>;

export const DebitConfirmResponse = z.object({ payment_id: z.number().int() });
