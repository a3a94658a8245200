import { csvText } from "#contract/csv";
import { and, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { attributionVisits, payments, users } from "../db/schema";
import type { Tracking } from "#contract/account";
import { countFunnelVisit } from "./analytics/rollups";

/**
 * Attribution: which funnel (network, ref, sub1-sub3) brought visits, signups, paying members and
 * revenue. Visits are counted per day by web when an entry URL carries tracking values the visitor did not
 * already have; signups keep the values (users.network...), and each payment copies the member's.
 */

const keys = ["network", "ref", "sub1", "sub2", "sub3"] as const;

/**
 * A visit: always one of the analytics funnel (per site's day, source and lander, api/domain/analytics/rollups.ts);
 * an entry through new tracking values (`entry`) is also one of the attribution report's (per UTC day and source).
 */
export async function recordVisit(db: Db, siteId: number, tracking: Tracking, now = new Date(), visit: { lander?: string; entry?: boolean } = {}): Promise<void> {
  const values = Object.fromEntries(keys.map((k) => [k, tracking[k] ?? ""])) as Record<(typeof keys)[number], string>;
  await countFunnelVisit(db, siteId, { ...values, lander: visit.lander ?? "" }, now);
  const entry = visit.entry ?? visit.lander === undefined;
  if (!entry || !keys.some((k) => values[k])) return;
  await db
    .insert(attributionVisits)
    .values({ day: now.toISOString().slice(0, 10), siteId, ...values, visits: 1 })
    .onConflictDoUpdate({
      target: [attributionVisits.day, attributionVisits.siteId, attributionVisits.network, attributionVisits.ref, attributionVisits.sub1, attributionVisits.sub2, attributionVisits.sub3],
      set: { visits: sql`${attributionVisits.visits} + 1` },
    });
}

export type AttributionRow = {
  network: string;
  ref: string;
  sub1: string;
  sub2: string;
  sub3: string;
  visits: number;
  signups: number;
  payingMembers: number;
  /** Paid, not refunded, by currency: minor units. */
  revenue: Record<string, number>;
};

/**
 * Visits, signups, paying members and revenue per network, ref and sub between `from` and `to` (days, both
 * included, UTC). Revenue is what paid payments brought in those days, per currency; refunded ones do not count.
 */
export async function attributionReport(db: Db, from: string, to: string): Promise<AttributionRow[]> {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000);
  const key = (r: { network: string | null; ref: string | null; sub1: string | null; sub2: string | null; sub3: string | null }) =>
    [r.network ?? "", r.ref ?? "", r.sub1 ?? "", r.sub2 ?? "", r.sub3 ?? ""].join("\u0000");
  const rows = new Map<string, AttributionRow>();
  const rowOf = (r: Parameters<typeof key>[0]) => {
    const k = key(r);
    let row = rows.get(k);
    if (!row) {
      row = { network: r.network ?? "", ref: r.ref ?? "", sub1: r.sub1 ?? "", sub2: r.sub2 ?? "", sub3: r.sub3 ?? "", visits: 0, signups: 0, payingMembers: 0, revenue: {} };
      rows.set(k, row);
    }
    return row;
  };
  const group = { network: attributionVisits.network, ref: attributionVisits.ref, sub1: attributionVisits.sub1, sub2: attributionVisits.sub2, sub3: attributionVisits.sub3 };
  const visits = await db
    .select({ ...group, n: sql<number>`sum(${attributionVisits.visits})::int` })
    .from(attributionVisits)
    .where(and(gte(attributionVisits.day, from), sql`${attributionVisits.day} <= ${to}`))
    .groupBy(attributionVisits.network, attributionVisits.ref, attributionVisits.sub1, attributionVisits.sub2, attributionVisits.sub3);
  for (const v of visits) rowOf(v).visits += Number(v.n);
  const signups = await db
    .select({ network: users.network, ref: users.ref, sub1: users.sub1, sub2: users.sub2, sub3: users.sub3, n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(gte(users.signupDate, start), lt(users.signupDate, end)))
    .groupBy(users.network, users.ref, users.sub1, users.sub2, users.sub3);
  for (const s of signups) rowOf(s).signups += Number(s.n);
  const paid = await db
    .select({
      network: payments.network,
      ref: payments.ref,
      sub1: payments.sub1,
      sub2: payments.sub2,
      sub3: payments.sub3,
      currency: payments.currency,
      amount: sql<number>`sum(${payments.amount})::bigint`,
    })
    .from(payments)
    .where(and(sql`${payments.status} = 'paid'`, gte(payments.paidAt, start), lt(payments.paidAt, end)))
    .groupBy(payments.network, payments.ref, payments.sub1, payments.sub2, payments.sub3, payments.currency);
  const payers = await db
    .select({ network: payments.network, ref: payments.ref, sub1: payments.sub1, sub2: payments.sub2, sub3: payments.sub3, members: sql<number>`count(distinct ${payments.userId})::int` })
    .from(payments)
    .where(and(sql`${payments.status} = 'paid'`, gte(payments.paidAt, start), lt(payments.paidAt, end)))
    .groupBy(payments.network, payments.ref, payments.sub1, payments.sub2, payments.sub3);
  for (const p of paid) {
    const row = rowOf(p);
    row.revenue[p.currency] = (row.revenue[p.currency] ?? 0) + Number(p.amount);
  }
  for (const p of payers) rowOf(p).payingMembers += Number(p.members);
  return [...rows.values()].sort((a, b) => b.visits - a.visits || b.signups - a.signups || a.network.localeCompare(b.network) || a.ref.localeCompare(b.ref) || a.sub1.localeCompare(b.sub1));
}

const money = (revenue: Record<string, number>) =>
  Object.entries(revenue)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, minor]) => `${currency} ${(minor / 100).toFixed(2)}`)
    .join(" ");

// C0 and C1 control characters and DEL (U+009B alone is a terminal's CSI), and the bidi controls that reorder what a
// terminal or spreadsheet shows (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069): docs/attribution.md.
const unprintable = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A tracking value as the report shows it: each control character becomes U+FFFD, so it cannot drive the
 * operator's terminal and two funnels that differ only by one do not look the same. The input refuses them
 * (contract/input.ts); values stored before that, or written by other means, still pass through here.
 */
export function printableValue(value: string): string {
  return value.replace(unprintable, "\uFFFD");
}

const headers = ["network", "ref", "sub1", "sub2", "sub3", "visits", "signups", "paying members", "revenue"];
const funnel = (r: AttributionRow) => [r.network, r.ref, r.sub1, r.sub2, r.sub3].map(printableValue);
const cells = (r: AttributionRow) => {
  const [network, ref, sub1, sub2, sub3] = funnel(r);
  return [network || "(none)", ref || "-", sub1 || "-", sub2 || "-", sub3 || "-", String(r.visits), String(r.signups), String(r.payingMembers), money(r.revenue) || "-"];
};

/** The report as an aligned table (numbers right-aligned). */
export function attributionTable(rows: AttributionRow[]): string {
  const body = rows.map(cells);
  const widths = headers.map((h, i) => Math.max(h.length, ...body.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i >= 5 && i <= 7 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ").trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/**
 * The report as CSV: RFC 4180 quoting, one line per row ending in a line feed; revenue one column per currency, in
 * major units. A value a spreadsheet would run as a formula (starting with = + - @ tab CR or their fullwidth forms,
 * OWASP's CSV injection list) gets a leading single quote, so it is shown as text (contract/csv.ts, every CSV's one function).
 */
export function attributionCsv(rows: AttributionRow[]): string {
  const currencies = [...new Set(rows.flatMap((r) => Object.keys(r.revenue)))].sort();
  const head = ["network", "ref", "sub1", "sub2", "sub3", "visits", "signups", "paying_members", ...currencies.map((c) => `revenue_${c}`)];
  const lines = rows.map((r) => [...funnel(r), r.visits, r.signups, r.payingMembers, ...currencies.map((c) => ((r.revenue[c] ?? 0) / 100).toFixed(2))]);
  return csvText([head, ...lines]);
}
