import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { profiles, users } from "../../db/schema";
import { isLocale, type Locale } from "#contract/locales";

export type Recipient = { userId: number; email: string; language: Locale; name: string };

/** Address, language and profile name a member's mails are written with. */
export async function recipientOf(db: Db, userId: number): Promise<Recipient | null> {
  const [row] = await db
    .select({ email: users.email, language: users.language, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  return { userId, email: row.email, language: isLocale(row.language) ? row.language : "en", name: row.name };
}
