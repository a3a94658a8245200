import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * Secrets kept in the database encrypted (AES-256-GCM): an IBAN (ADR 010), a staff member's TOTP secret. A leaked
 * table gives nothing without the key, and a changed ciphertext fails to open.
 */

/** A 32-byte key for one purpose, derived from the deployment's session secret. */
export function derivedKey(secret: string, purpose: string): Buffer {
  return createHmac("sha256", secret).update(purpose).digest();
}

/** "v1.<iv>.<tag>.<ciphertext>" in base64url. */
export function seal(text: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export function unseal(stored: string, key: Buffer): string {
  const [version, iv, tag, data] = stored.split(".");
  if (version !== "v1" || !iv || !tag || !data) throw new Error("not a sealed value");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
