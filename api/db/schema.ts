/**
 * The database schema (drizzle), split by domain under api/db/schema/: every table and its constants is exported from
 * here, as drizzle-kit (drizzle.config.ts) and the api read them. Shared column helpers: api/db/schema/columns.ts.
 */
export * from "./schema/sites";
export * from "./schema/members";
export * from "./schema/access";
export * from "./schema/relations";
export * from "./schema/chat";
export * from "./schema/payments";
export * from "./schema/operations";
export * from "./schema/staff";
export * from "./schema/analytics";
