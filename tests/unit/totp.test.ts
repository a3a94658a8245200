import { describe, expect, it } from "vitest";
import { newTotpSecret, totpCode, totpStep, totpUri } from "../../api/domain/staff/totp";

/** RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" (base32 below), its 8-digit codes cut to the app's 6. */
const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const rfcVectors: [seconds: number, code: string][] = [
  [59, "287082"],
  [1111111109, "081804"],
  [1111111111, "050471"],
  [1234567890, "005924"],
  [2000000000, "279037"],
];

describe("the staff's second factor (TOTP)", () => {
  it("gives RFC 6238's codes for its test secret", () => {
    for (const [seconds, code] of rfcVectors) expect(totpCode(rfcSecret, seconds * 1000), `T=${seconds}`).toBe(code);
  });

  it("accepts a code of the step before, now or after, and tells the step; refuses older, newer and malformed ones", () => {
    const now = 1_700_000_015_000;
    const step = Math.floor(now / 30_000);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now), now)).toBe(step);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now + 30_000), now)).toBe(step + 1);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now - 60_000), now)).toBeNull();
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now + 60_000), now)).toBeNull();
    for (const bad of ["", "12345", "1234567", "abcdef", " 123456"]) expect(totpStep(rfcSecret, bad, now), JSON.stringify(bad)).toBeNull();
  });

  it("makes 160-bit secrets and the otpauth URI authenticator apps read", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, "ada@example.com", "Rendezvous staff"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret, issuer: "Rendezvous staff", algorithm: "SHA1", digits: "6", period: "30" });
  });
});
