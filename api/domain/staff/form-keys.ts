import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { staffFormKeys } from "../../db/schema";
import type { StaffMember } from "./sessions";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Takes a staff form's key (made when the page rendered the form) inside the transaction that books the form: true the
 * first time, false when the same form was booked already (a double click, a resent form, a second tab). Two identical
 * posts at once: the unique index makes the second wait for the first's transaction and then find the key taken. A
 * transaction that rolls back gives the key back, so a refused form can be sent again.
 */
export async function takeFormKey(tx: Db | Tx, staff: Pick<StaffMember, "id">, formKey: string, now = new Date()): Promise<boolean> {
  const [taken] = await tx.insert(staffFormKeys).values({ staffUserId: staff.id, formKey, createdAt: now }).onConflictDoNothing().returning({ key: staffFormKeys.formKey });
  return Boolean(taken);
}

/** Gives a key back after its booking failed outside the transaction that took it (a refund the provider refused). */
export async function releaseFormKey(db: Db, staff: Pick<StaffMember, "id">, formKey: string): Promise<void> {
  await db.delete(staffFormKeys).where(and(eq(staffFormKeys.staffUserId, staff.id), eq(staffFormKeys.formKey, formKey)));
}
