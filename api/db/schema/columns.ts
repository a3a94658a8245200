import { timestamp } from "drizzle-orm/pg-core";

/**
 * Shared column helpers. The references live beside their tables: siteRef() in sites.ts, userRef() and profileRef(name)
 * in members.ts.
 */

/** When a row was made: every table that keeps it names it created_at, with the time zone, set by the database. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
