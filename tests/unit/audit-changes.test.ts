import { describe, expect, it } from "vitest";
import { auditChanges } from "../../api/domain/staff/audit";

/** docs/staff.md: the audit log keeps what changed, before and after, but never a secret's value, at any depth. */
describe("the audit log's changes", () => {
  it("leaves out unchanged fields (whatever the key order) and the values of secrets, nested ones too", () => {
    expect(
      auditChanges({
        status: { before: "active", after: "suspended" },
        same: { before: { a: 1, b: [1, 2] }, after: { b: [1, 2], a: 1 } },
        password_hash: { before: "old", after: "new" },
        smtp_url: { before: "smtp://a", after: "smtp://b" },
        totp_secret: { before: null, after: "JBSW" },
        settings: { before: { name: "A", vapid_private_key: "k1", nested: { api_key: "x" } }, after: { name: "B", vapid_private_key: "k2", nested: { api_key: "y" } } },
        discount_code: { before: "OLD10", after: "NEW20" },
      }),
    ).toEqual({
      status: { before: "active", after: "suspended" },
      password_hash: { before: "(secret)", after: "(secret, changed)" },
      smtp_url: { before: "(secret)", after: "(secret, changed)" },
      totp_secret: { before: "(secret)", after: "(secret, changed)" },
      settings: { before: { name: "A", vapid_private_key: "(secret)", nested: { api_key: "(secret)" } }, after: { name: "B", vapid_private_key: "(secret)", nested: { api_key: "(secret)" } } },
      discount_code: { before: "(secret)", after: "(secret, changed)" },
    });
  });
});
