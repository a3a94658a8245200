import { Secret, TOTP } from "otpauth";

/**
 * The staff's second factor: TOTP (RFC 6238) as authenticator apps speak it, SHA-1, 6 digits, 30-second steps; a code
 * of the step before or after is accepted (clocks drift), and each step's code logs in once (the caller keeps the
 * last step used).
 */
export const totpPeriodSeconds = 30;

function totpOf(secretBase32: string, label = "", issuer = ""): TOTP {
  return new TOTP({ issuer, label, secret: Secret.fromBase32(secretBase32), algorithm: "SHA1", digits: 6, period: totpPeriodSeconds });
}

/** A new random secret (160 bits), base32 as apps expect it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an app reads from the enrolment QR code. */
export function totpUri(secretBase32: string, email: string, issuer: string): string {
  return totpOf(secretBase32, email, issuer).toString();
}

/** The code of a time (tests, and the demo's documented secret). */
export function totpCode(secretBase32: string, atMs = Date.now()): string {
  return totpOf(secretBase32).generate({ timestamp: atMs });
}

/** The time step a code belongs to (within one step of now), or null for a wrong code. */
export function totpStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? null : Math.floor(nowMs / 1000 / totpPeriodSeconds) + delta;
}
