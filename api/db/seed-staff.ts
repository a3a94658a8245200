import { asc, sql } from "drizzle-orm";
import type { Db } from "./client";
import { sites, staffUsers, type StaffRole } from "./schema";
import { demoPassword } from "./seed";
import { addStaffAccount } from "../domain/staff/accounts";
import { servesEverySite } from "#contract/staff-permissions";

/**
 * The demo's staff accounts (README, docs/staff.md): one per role, password `demo-password`, and the TOTP secret
 * JBSWY3DPEHPK3PXP, which any authenticator app can be given by hand. Demo data only: a real deployment makes its
 * first admin with `npm run staff -- add`.
 */
export const demoTotpSecret = "JBSWY3DPEHPK3PXP";
export const demoStaff: { email: string; name: string; role: StaffRole }[] = [
  { email: "admin@example.com", name: "Ada Admin", role: "admin" },
  { email: "moderator@example.com", name: "Mo Moderator", role: "moderator" },
  { email: "support@example.com", name: "Sam Support", role: "support" },
  { email: "operator@example.com", name: "Olly Operator", role: "operator" },
];

/** Adds the demo staff when there is no staff account yet; answers how many it added. */
export async function seedDemoStaff(db: Db, secret: string): Promise<number> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(staffUsers);
  if ((existing?.n ?? 0) > 0) return 0;
  const siteIds = (await db.select({ id: sites.id }).from(sites).orderBy(asc(sites.id))).map((row) => row.id);
  for (const staff of demoStaff) {
    await addStaffAccount(db, secret, { ...staff, siteIds: servesEverySite(staff.role) ? [] : siteIds, password: demoPassword, totpSecret: demoTotpSecret });
  }
  return demoStaff.length;
}
