import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadApiConfig } from "../../api/config";
import { hashPassword, setPasswordHashCost, verifyPassword } from "../../api/domain/passwords";

/**
 * The cost of password hashes is a setting (PASSWORD_HASH_COST, log2 of scrypt's N): test servers hash at 2^10,
 * production at OWASP's floor 2^17. Each hash keeps its own parameters, so a hash verifies at any setting.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "rdv-passwords-"));
const base = { NODE_ENV: "test", DATA_DIR: dataDir, SESSION_SECRET: "s".repeat(40) } as const;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// Production-cost hashes take about 0.3 s each on a quiet 2-core machine, several times that on a busy one.
describe("password hashing cost", { timeout: 60_000 }, () => {
  it("hashes at scrypt N=2^17, r=8, p=1 unless PASSWORD_HASH_COST says otherwise, and such a hash verifies", async () => {
    loadApiConfig({ ...base });
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
  });

  it("verifies a hash by its own parameters, whatever the current setting", async () => {
    setPasswordHashCost(17);
    const strong = await hashPassword("pw-strong");
    loadApiConfig({ ...base, PASSWORD_HASH_COST: "10" });
    const cheap = await hashPassword("pw-cheap");
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword("pw-strong", strong)).toBe(true);
    setPasswordHashCost(17);
    expect(await verifyPassword("pw-cheap", cheap)).toBe(true);
    expect(await verifyPassword("pw-cheap", null)).toBe(false);
  });

  it("refuses a cost below 2^17 in production, and costs outside 10-20 anywhere", () => {
    expect(() => loadApiConfig({ ...base, NODE_ENV: "production", PASSWORD_HASH_COST: "16" })).toThrow(
      "Invalid api configuration: PASSWORD_HASH_COST must be at least 17 in production",
    );
    expect(() => loadApiConfig({ ...base, PASSWORD_HASH_COST: "9" })).toThrow(/PASSWORD_HASH_COST/);
    expect(() => loadApiConfig({ ...base, PASSWORD_HASH_COST: "21" })).toThrow(/PASSWORD_HASH_COST/);
  });
});
