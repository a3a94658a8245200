import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { currentClient } from "./client-scope";
import { hashQueue } from "./hash-queue";

/** OWASP's scrypt floor: N=2^17, r=8, p=1 (128 MiB); production never hashes below it (api/config.ts). */
export const productionHashCost = 17;
const keyLength = 32;
const maxmem = 256 * 1024 * 1024;
// Each hash stores its own parameters, so a hash made at one cost verifies at any other setting.
let params = { N: 2 ** productionHashCost, r: 8, p: 1 };
let dummyHash = makeDummyHash();

/**
 * The cost (log2 of scrypt's N) of new hashes: PASSWORD_HASH_COST, read once at start. Test servers lower
 * it so hundreds of signups stay cheap; tests/unit/passwords.test.ts proves the production parameters.
 */
export function setPasswordHashCost(log2N: number): void {
  params = { ...params, N: 2 ** log2N };
  dummyHash = makeDummyHash();
}

function makeDummyHash(): string {
  return `scrypt$${params.N}$${params.r}$${params.p}$${Buffer.alloc(16).toString("base64url")}$${Buffer.alloc(keyLength).toString("base64url")}`;
}

/** Every derivation waits its client's turn in the hash queue, so hashing cannot starve other requests. */
function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return hashQueue.run(currentClient()?.ip ?? "local", () => new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  }));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { ...params, maxmem });
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
    maxmem,
  });
  // An account without a password still costs a full derivation, so timing tells nothing.
  return stored !== null && expected.length === actual.length && timingSafeEqual(expected, actual);
}
