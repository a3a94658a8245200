import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditLog } from "../../db/schema";
import type { StaffMember } from "./sessions";
import type { AuditAction } from "#contract/staff";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Fields whose values never go into the log, whatever action changes them, at any depth. */
const secretFields = /password|secret|token|totp|recovery|iban|salt|hash|private|api_?key|(^|_)key$|smtp|card|(^|_)code$/i;

/** A value with the values of its secret fields replaced, at any depth. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, secretFields.test(key) ? "(secret)" : withoutSecrets(item)]));
  return value;
}

/** A stable text of a value (keys sorted), to tell whether a field changed. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`).join(",")}}`;
  return JSON.stringify(value) ?? "undefined";
}

export type AuditEntry = {
  action: AuditAction;
  targetType: string;
  targetId?: string | number | null;
  siteId?: number | null;
  /** Before and after of each changed field; secret fields are logged as changed, without their values. */
  changes?: Record<string, { before: unknown; after: unknown }>;
};

/** Leaves out the values of secret fields and the fields that did not change. */
export function auditChanges(changes: Record<string, { before: unknown; after: unknown }>): Record<string, { before: unknown; after: unknown }> {
  return Object.fromEntries(
    Object.entries(changes)
      .filter(([, { before, after }]) => stable(before) !== stable(after))
      .map(([field, change]) => [field, secretFields.test(field) ? { before: "(secret)", after: "(secret, changed)" } : { before: withoutSecrets(change.before), after: withoutSecrets(change.after) }]),
  );
}

/**
 * Records a staff write, inside the transaction that makes it (so there is no write without its entry, nor an entry
 * without its write). The table refuses UPDATE and DELETE (api/db/functions/audit_log_append_only.sql).
 */
export async function recordAudit(tx: Db | Tx, staff: Pick<StaffMember, "id" | "email" | "role">, clientIp: string | null, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    staffUserId: staff.id,
    staffEmail: staff.email,
    role: staff.role,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
    siteId: entry.siteId ?? null,
    changes: auditChanges(entry.changes ?? {}),
    clientIp,
  });
}

export type AuditFilter = { staffUserId?: number; action?: string; targetType?: string; targetId?: string; from?: Date; to?: Date; before?: number; limit: number };

/** The log, newest first, filtered; `before` (an entry id) pages back. */
export async function listAudit(db: Db, filter: AuditFilter) {
  const where: SQL[] = [];
  if (filter.staffUserId !== undefined) where.push(eq(auditLog.staffUserId, filter.staffUserId));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.targetType) where.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(auditLog.targetId, filter.targetId));
  if (filter.from) where.push(gte(auditLog.at, filter.from));
  if (filter.to) where.push(lt(auditLog.at, filter.to));
  if (filter.before !== undefined) where.push(lt(auditLog.id, filter.before));
  return db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(filter.limit);
}
