import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dismissals } from "../../db/schema";
import type { dismissalKeys } from "#contract/account";

type DismissalKey = (typeof dismissalKeys)[number];

/** docs/product.md §4: key -> ISO time of the member's dismissals. */
export async function listDismissals(db: Db, userId: number): Promise<Partial<Record<DismissalKey, string>>> {
  const rows = await db.select().from(dismissals).where(eq(dismissals.userId, userId));
  return Object.fromEntries(rows.map((r) => [r.key, r.dismissedAt.toISOString()]));
}

/** Stores (or renews) a dismissal with the current time. */
export async function dismiss(db: Db, userId: number, key: DismissalKey, now = new Date()): Promise<void> {
  await db
    .insert(dismissals)
    .values({ userId, key, dismissedAt: now })
    .onConflictDoUpdate({ target: [dismissals.userId, dismissals.key], set: { dismissedAt: now } });
}
