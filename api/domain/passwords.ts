import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { currentClient } from "./client-scope";
import { hashQueue } from "./hash-queue";

// OWASP's scrypt floor: N=2^17, r=8, p=1 (128 MiB). Stored with its parameters so they can rise later.
const params = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
const keyLength = 32;

/** Every derivation waits its client's turn in the hash queue, so hashing cannot starve other requests. */
function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return hashQueue.run(currentClient()?.ip ?? "local", () => new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  }));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? dummyHash).split("$");
  const [scheme, n, r, p, salt, key] = parts;
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: params.maxmem,
  });
  // An account without a password still costs a full derivation, so timing tells nothing.
  return stored !== null && expected.length === actual.length && timingSafeEqual(expected, actual);
}

const dummyHash = `scrypt$${params.N}$${params.r}$${params.p}$${Buffer.alloc(16).toString("base64url")}$${Buffer.alloc(keyLength).toString("base64url")}`;
