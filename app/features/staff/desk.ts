import { fill } from "./staff-format";

/**
 * The operator desk's rules shared by the inbox and a conversation (docs/staff.md, the desk): how long a member has
 * waited and how that is marked, a saved reply's placeholders, and the keys of the desk's shortcuts.
 */

export type WaitLevel = "ok" | "warn" | "late";

/** A wait as staff read it: "14 min", "2 h 5 min", "3 d". */
export function waitedText(texts: { minutes: string; hours: string; days: string }, lastAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(lastAt)) / 60_000));
  if (minutes < 60) return fill(texts.minutes, { n: minutes });
  if (minutes < 24 * 60) return fill(texts.hours, { h: Math.floor(minutes / 60), m: minutes % 60 });
  return fill(texts.days, { n: Math.floor(minutes / (24 * 60)) });
}

/** Whether a wait is past the site's amber or red threshold (minutes). */
export function waitLevel(lastAt: string, now: number, thresholds: { warn_minutes: number; late_minutes: number } | undefined): WaitLevel {
  if (!thresholds) return "ok";
  const minutes = (now - Date.parse(lastAt)) / 60_000;
  if (minutes >= thresholds.late_minutes) return "late";
  if (minutes >= thresholds.warn_minutes) return "warn";
  return "ok";
}

/** The colours of a wait's level (text on a tinted background, contrast AA). */
export const waitClass: Record<WaitLevel, string> = {
  ok: "text-gray-800",
  warn: "rounded bg-amber-100 px-1.5 text-amber-900",
  late: "rounded bg-red-100 px-1.5 font-semibold text-red-800",
};

/** A saved reply's text with its placeholders filled: {member} and {profile} become the names. */
export function fillSavedReply(body: string, names: { member: string; profile: string }): string {
  return body.replace(/\{(member|profile)\}/g, (_, name: "member" | "profile") => names[name]);
}

/** The desk's shortcut keys by KeyboardEvent.code (the physical key: Alt+letter types other characters on a Mac). */
export const deskKeys = { next: "KeyN", previous: "KeyP", claim: "KeyC", leave: "KeyL", savedReplies: "KeyR" } as const;

/** The conversations this tab opened, the newest last (Alt+P goes to the one before), kept in sessionStorage. */
const trailKey = "rdv-desk-trail";

export function rememberVisit(id: number): number | null {
  try {
    const trail = (JSON.parse(sessionStorage.getItem(trailKey) ?? "[]") as number[]).filter((n) => typeof n === "number");
    if (trail[trail.length - 1] !== id) trail.push(id);
    sessionStorage.setItem(trailKey, JSON.stringify(trail.slice(-50)));
    return trail.length >= 2 ? (trail[trail.length - 2] ?? null) : null;
  } catch {
    return null;
  }
}

/** The draft of an answer, per conversation, in sessionStorage (kept when a claim is lost or the page reloads). */
export const draftKey = (id: number) => `rdv-desk-draft-${id}`;

export function readDraft(id: number): string {
  try {
    return sessionStorage.getItem(draftKey(id)) ?? "";
  } catch {
    return "";
  }
}

export function writeDraft(id: number, text: string): void {
  try {
    if (text) sessionStorage.setItem(draftKey(id), text);
    else sessionStorage.removeItem(draftKey(id));
  } catch {
    // Storage off (private mode): the draft lives in the form only.
  }
}
