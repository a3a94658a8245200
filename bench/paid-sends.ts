/**
 * The "paid sends" row of `npm run bench`: chat messages per second through the api (POST
 * /api/message.php over HTTP to the api's port, as web sends them), then a check that the credits add
 * up exactly in the database.
 *
 * Preparation (`prepareDatabase`), before the api starts, in the database the api will use (PGlite in
 * DATA_DIR/db, which only one process may open, or the scratch PostgreSQL database): the api's own
 * migrations and demo data (`seedDemoData`, which the api then finds and leaves alone), and `senders`
 * members on the first non-default demo site (so the default site's pages the bench measures show the
 * same members as before) with `startCredits` credits each, bought as the demo premium member's are:
 * users.credits and one credit_ledger row (reason "purchase", reference "bench"), paid_user, e-mail
 * confirmed, active profile. Each gets a session as the api's createSession makes one (a random token
 * stored as hashToken(token, SESSION_SECRET) with the api's expiry; all in one insert), instead of 50
 * logins over HTTP (each login hashes a password: 0.4 s of CPU). With `live`, the live stream's members
 * (bench/live-stream.ts) are made the same way on the same site: listeners (no credits) and live senders.
 *
 * Load (`runPaidSends`): `connections` concurrent keep-alive connections (bench/keep-alive-client.ts), connection c sending as
 * sender c % senders to the senders 1, 2 and 3 places before and after it (so conversations are written
 * from both ends), each send with its own idempotency key (a UUID, as web's form carries), X-Client-IP
 * one address per sender and X-Forwarded-Host the site, as web forwards them. Unlike autocannon, a run
 * never abandons a request: at the end every connection waits for its answer, so every send the api
 * stored was counted by its answer. sends/s counts the 201 answers that came within the run's seconds
 * (as autocannon counts a page's); the answers after it count for the accounting, and the api's CPU
 * time until the last answer is divided by all answers (PostgreSQL's own CPU is not in it).
 *
 * Check (`checkAccounting`), after the api stopped: messages stored by the senders == 201 answers (per
 * sender too), ledger "message" rows == 201 answers, each sender's balance == start − message_credits ×
 * their 201 answers, and for every member of every site SUM(credit_ledger.delta) == users.credits (one
 * query).
 */
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { openDatabase } from "../api/db/client";
import { creditLedger, messages, profiles, sessions, sites, users } from "../api/db/schema";
import { seedDemoData } from "../api/db/seed";
import { hashToken, sessionCookieName, sessionMaxAgeSeconds } from "../api/domain/sessions";
import { cpuSpent } from "./cpu";
import { KeepAliveConnection } from "./keep-alive-client";
import { walPerOperation, type WalCounters } from "./postgres";

export type Sender = { userId: number; profileId: number; cookie: string; clientIp: string };
export type SendersSetup = { siteId: number; siteDomain: string; messageCredits: number; startCredits: number; senders: Sender[] };
type DatabaseLocation = { databaseUrl: string | null; dataDir: string };
type Database = Awaited<ReturnType<typeof openDatabase>>;

/** Opens the database the api will use (PGlite: DATA_DIR/db, as api/main.ts does). */
function open(location: DatabaseLocation) {
  return openDatabase({ databaseUrl: location.databaseUrl ?? undefined, dataDir: location.dataDir });
}

/**
 * A group of prepared members: e-mail bench-{slug}-N@bench.invalid, profile name "{name} N", one client
 * address each in `{subnet}.{thirdOctet + ⌊i / 250⌋}.{i % 250 + 1}` (198.18.0.0/15: benchmark networks, RFC 2544).
 */
type MemberGroup = { slug: string; name: string; count: number; credits: number; subnet: "198.18" | "198.19"; thirdOctet: number };

/** The members of the bench's live stream (bench/live-stream.ts): listeners keep a stream open, senders (with credits) write to them. */
export type LiveSetup = { listeners: Sender[]; senders: SendersSetup };

/**
 * Demo data (as the api would seed it) plus the senders (and, with `live`, the live stream's listeners and
 * senders, on the same site); the database is closed again before the api opens it.
 */
export async function prepareDatabase(
  location: DatabaseLocation & { secret: string; senders: number; startCredits: number; live?: { listeners: number; senders: number; startCredits: number } },
): Promise<SendersSetup & { live: LiveSetup | null }> {
  const database = await open(location);
  try {
    const { db } = database;
    await seedDemoData(db, { uploadsDir: path.join(location.dataDir, "uploads") });
    const [site] = await db
      .select({ id: sites.id, domain: sites.domain, messageCredits: sites.messageCredits })
      .from(sites)
      .where(eq(sites.isDefault, false))
      .orderBy(asc(sites.id))
      .limit(1);
    if (!site) throw new Error("the demo data has no site besides the default one for the bench's senders");
    const group = (members: MemberGroup) => insertMembers(db, site.id, members, location.secret);
    const senders = await group({ slug: "sender", name: "Sender", count: location.senders, credits: location.startCredits, subnet: "198.18", thirdOctet: 0 });
    const paid = { siteId: site.id, siteDomain: site.domain, messageCredits: site.messageCredits, startCredits: location.startCredits, senders };
    let live: LiveSetup | null = null;
    if (location.live) {
      const { listeners, senders: liveSenders, startCredits } = location.live;
      live = {
        listeners: await group({ slug: "listener", name: "Listener", count: listeners, credits: 0, subnet: "198.19", thirdOctet: 0 }),
        senders: { ...paid, startCredits, senders: await group({ slug: "live-sender", name: "Live sender", count: liveSenders, credits: startCredits, subnet: "198.19", thirdOctet: 100 }) },
      };
    }
    return { ...paid, live };
  } finally {
    await database.close();
  }
}

/**
 * Inserts a group of members as the demo premium member is made (users.credits with one credit_ledger row,
 * reason "purchase", reference "bench", when they have credits; paid_user with credits; e-mail confirmed,
 * active profile), in one transaction, then gives each a session as the api's createSession does (in one statement).
 */
async function insertMembers(db: Database["db"], siteId: number, group: MemberGroup, secret: string): Promise<Sender[]> {
  if (group.count === 0) return [];
  const now = new Date();
  const created = await db.transaction(async (tx) => {
    const numbers = Array.from({ length: group.count }, (_, i) => i + 1);
    const inserted = await tx
      .insert(users)
      .values(numbers.map((n) => ({ siteId, email: `bench-${group.slug}-${n}@bench.invalid`, status: "active" as const, credits: group.credits, paidUser: group.credits > 0, emailConfirmedAt: now })))
      .returning({ id: users.id, email: users.email });
    const userIds = new Map(inserted.map((u) => [u.email, u.id]));
    const userOf = (n: number) => {
      const id = userIds.get(`bench-${group.slug}-${n}@bench.invalid`);
      if (id === undefined) throw new Error(`bench: member ${group.slug} ${n} was not inserted`);
      return id;
    };
    if (group.credits > 0) {
      await tx.insert(creditLedger).values(numbers.map((n) => ({ userId: userOf(n), delta: group.credits, balanceAfter: group.credits, reason: "purchase" as const, reference: "bench" })));
    }
    const profileRows = await tx
      .insert(profiles)
      .values(
        numbers.map((n) => ({
          userId: userOf(n),
          siteId,
          name: `${group.name} ${n}`,
          country: "NL",
          status: "active" as const,
          dateOfBirth: "1990-01-01",
          gender: n % 2 ? ("male" as const) : ("female" as const),
        })),
      )
      .returning({ id: profiles.id, userId: profiles.userId });
    const profileOf = new Map(profileRows.map((p) => [p.userId, p.id]));
    return numbers.map((n) => {
      const userId = userOf(n);
      const profileId = profileOf.get(userId);
      if (profileId === undefined) throw new Error(`bench: member ${group.slug} ${n} has no profile`);
      return { userId, profileId };
    });
  });
  // As the api's createSession makes them, in one statement: a random token, stored as its hash with the api's SESSION_SECRET.
  const tokens = created.map(() => randomBytes(32).toString("base64url"));
  const expiresAt = new Date(Date.now() + sessionMaxAgeSeconds * 1000);
  await db.insert(sessions).values(created.map((row, i) => ({ tokenHash: hashToken(tokens[i] ?? "", secret), userId: row.userId, expiresAt })));
  return created.map((row, i) => ({
    ...row,
    cookie: `${sessionCookieName}=${tokens[i]}`,
    clientIp: `${group.subnet}.${group.thirdOctet + Math.floor(i / 250)}.${(i % 250) + 1}`,
  }));
}

/**
 * One run: every answer (also those that came after the deadline, for the accounting), and the 201 answers
 * that came within it (for the rate, as autocannon counts only what answers within its duration).
 */
type Phase = {
  requests: number;
  created: number;
  createdInTime: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  latencies: number[];
  seconds: number;
  /** From the start until the last answer: the run plus the answers still open at its end. */
  drainedSeconds: number;
};

export type PaidSendsResult = {
  name: string;
  senders: number;
  connections: number;
  /** Of the measured run (after the warm-up): its length, and until its last open request was answered. */
  seconds: number;
  drainedSeconds: number;
  /** Answers of the measured run, also those after its end. */
  requests: number;
  /** 201 answers within the measured run's `seconds`, per second. */
  sendsPerSec: number;
  latencyMs: { average: number; p50: number; p90: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  non201: number;
  errors: number;
  timeouts: number;
  /** api CPU time during the measured run / its answers. */
  cpuMsPerSend: Record<string, number | null>;
  /** PostgreSQL's CPU time (a server on this machine, bench/cpu.ts postgresCpu) during the measured run / its answers. */
  postgresCpuMsPerSend: number | null;
  /** The WAL the server wrote during the measured run / its answers (bench/postgres.ts walCounters), on PostgreSQL. */
  walPerSend: WalCounters | null;
  /** The bench's own CPU time (the load generator) during the measured run / its answers. */
  loadGeneratorCpuMsPerSend: number | null;
  loadGeneratorCpuPercent: number | null;
  /** 201 answers of the warm-up and the measured run together, by sender (what the accounting is checked against). */
  createdTotal: number;
  createdBySender: number[];
  accounting: Accounting | null;
};

export type Accounting = {
  exact: boolean;
  /** "exact" or what did not add up. */
  summary: string;
  messageCredits: number;
  startCredits: number;
  answered201: number;
  messagesStored: number;
  ledgerMessageRows: number;
  sendersWithWrongBalance: number;
  sendersWithWrongMessageCount: number;
  members: number;
  membersLedgerNotBalance: number;
  examples: string[];
};

let stopped = false;

/** Stops sending (Ctrl-C): connections finish the request they have open and stop. */
export function stopSends(): void {
  stopped = true;
}

/** Relative offsets of the recipients of a sender: both neighbours on each side, so each conversation is written from both ends. */
const recipientOffsets = [1, -1, 2, -2, 3, -3];

async function sendPhase(apis: URL[], setup: SendersSetup, options: { seconds: number; connections: number }, createdBySender: number[]): Promise<Phase> {
  const phase: Phase = { requests: 0, created: 0, createdInTime: 0, statusCodes: {}, errors: 0, timeouts: 0, latencies: [], seconds: options.seconds, drainedSeconds: 0 };
  const { senders } = setup;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const connection = async (c: number) => {
    const index = c % senders.length;
    const sender = senders[index];
    // Several api instances (the bench's --scale): connection c sends to instance c mod n.
    const api = apis[c % apis.length]!;
    if (!sender) return;
    const client = new KeepAliveConnection(api.hostname, Number(api.port));
    const head =
      `POST /api/message.php HTTP/1.1\r\nhost: ${api.host}\r\naccept: application/json\r\ncontent-type: application/json\r\n` +
      `cookie: ${sender.cookie}\r\nx-client-ip: ${sender.clientIp}\r\nx-forwarded-host: ${setup.siteDomain}\r\nx-forwarded-proto: http\r\n`;
    for (let n = c; performance.now() < deadline && !stopped; n++) {
      const to = senders[(index + (recipientOffsets[n % recipientOffsets.length] ?? 1) + senders.length * 4) % senders.length];
      const body = JSON.stringify({ to: to?.profileId, body: `Bench message ${n} from sender ${index + 1}`, key: randomUUID() });
      const t0 = performance.now();
      try {
        const status = await client.request(head, body);
        const t1 = performance.now();
        phase.latencies.push(t1 - t0);
        phase.requests += 1;
        phase.statusCodes[status] = (phase.statusCodes[status] ?? 0) + 1;
        if (status === 201) {
          phase.created += 1;
          if (t1 <= deadline) phase.createdInTime += 1;
          createdBySender[index] = (createdBySender[index] ?? 0) + 1;
        }
      } catch (error) {
        phase.errors += 1;
        if (error instanceof Error && error.message === "timeout") phase.timeouts += 1;
      }
    }
    client.close();
  };
  await Promise.all(Array.from({ length: options.connections }, (_, c) => connection(c)));
  phase.drainedSeconds = (performance.now() - started) / 1000;
  if (stopped) phase.seconds = Math.min(phase.seconds, phase.drainedSeconds);
  return phase;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Warm-up (its 201 answers counted for the accounting, not for the rate), then the measured run, with the
 * api's CPU time around the measured run (`cpu` is called before and after it).
 */
export async function runPaidSends(
  apiUrl: string | string[],
  setup: SendersSetup,
  options: {
    seconds: number;
    warmupSeconds: number;
    connections: number;
    beforeMeasure: () => Promise<void>;
    cpu: () => number | null;
    /** A PostgreSQL server's processes' CPU (bench/cpu.ts postgresCpu), when the api's database is one on this machine. */
    postgresCpu?: () => Map<number, number> | null;
    /** The server's WAL counters (bench/postgres.ts walCounters), when the api's database is PostgreSQL. */
    wal?: () => Promise<WalCounters | null>;
  },
): Promise<PaidSendsResult> {
  const api = (Array.isArray(apiUrl) ? apiUrl : [apiUrl]).map((url) => new URL(url));
  const createdBySender = setup.senders.map(() => 0);
  let warmup: Phase | null = null;
  if (options.warmupSeconds > 0) warmup = await sendPhase(api, setup, { seconds: options.warmupSeconds, connections: options.connections }, createdBySender);
  await options.beforeMeasure();
  const cpuBefore = options.cpu();
  const postgresBefore = options.postgresCpu?.() ?? null;
  const walBefore = (await options.wal?.()) ?? null;
  const ownBefore = process.cpuUsage();
  const run = await sendPhase(api, setup, { seconds: options.seconds, connections: options.connections }, createdBySender);
  const cpuAfter = options.cpu();
  const postgresMs = cpuSpent(postgresBefore, options.postgresCpu?.() ?? null);
  const own = process.cpuUsage(ownBefore);
  const walAfter = (await options.wal?.()) ?? null;
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const average = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0;
  return {
    name: `api POST /api/message.php (${setup.senders.length} senders)`,
    senders: setup.senders.length,
    connections: options.connections,
    seconds: run.seconds,
    drainedSeconds: run.drainedSeconds,
    requests: run.requests,
    sendsPerSec: run.seconds > 0 ? run.createdInTime / run.seconds : 0,
    latencyMs: { average, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 },
    statusCodes: run.statusCodes,
    non201: run.requests - run.created + (warmup ? warmup.requests - warmup.created : 0),
    errors: run.errors + (warmup?.errors ?? 0),
    timeouts: run.timeouts + (warmup?.timeouts ?? 0),
    cpuMsPerSend: { api: cpuBefore === null || cpuAfter === null || run.requests === 0 ? null : (cpuAfter - cpuBefore) / run.requests },
    postgresCpuMsPerSend: postgresMs === null || run.requests === 0 ? null : postgresMs / run.requests,
    walPerSend: walPerOperation(walBefore, walAfter, run.requests),
    loadGeneratorCpuMsPerSend: run.requests === 0 ? null : (own.user + own.system) / 1000 / run.requests,
    loadGeneratorCpuPercent: ((own.user + own.system) / 1000 / (run.drainedSeconds * 1000)) * 100,
    createdTotal: createdBySender.reduce((a, b) => a + b, 0),
    createdBySender,
    accounting: null,
  };
}

/** The database after the sends (the api stopped: PGlite allows one process), against the 201 answers. */
export async function checkAccounting(location: DatabaseLocation, setup: SendersSetup, result: Pick<PaidSendsResult, "createdBySender" | "createdTotal" | "errors">): Promise<Accounting> {
  const database = await open(location);
  try {
    const { db } = database;
    const profileIds = setup.senders.map((s) => s.profileId);
    const userIds = setup.senders.map((s) => s.userId);
    const stored = await db
      .select({ sender: messages.senderProfileId, n: sql<number>`count(*)::int`, credits: sql<number>`coalesce(sum(${messages.credits}), 0)::int` })
      .from(messages)
      .where(inArray(messages.senderProfileId, profileIds))
      .groupBy(messages.senderProfileId);
    const storedBy = new Map(stored.map((r) => [r.sender, Number(r.n)]));
    const [ledger] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(creditLedger)
      .where(and(inArray(creditLedger.userId, userIds), eq(creditLedger.reason, "message")));
    const balances = new Map((await db.select({ id: users.id, credits: users.credits }).from(users).where(inArray(users.id, userIds))).map((r) => [r.id, r.credits]));
    // Every member of every site: the ledger's sum is the balance (one query).
    const totals = db
      .select({ userId: creditLedger.userId, total: sql<number>`sum(${creditLedger.delta})`.as("total") })
      .from(creditLedger)
      .groupBy(creditLedger.userId)
      .as("totals");
    const [members] = await db
      .select({ members: sql<number>`count(*)::int`, mismatched: sql<number>`(count(*) filter (where coalesce(${totals.total}, 0) <> ${users.credits}))::int` })
      .from(users)
      .leftJoin(totals, eq(totals.userId, users.id));

    const examples: string[] = [];
    let wrongBalance = 0;
    let wrongCount = 0;
    setup.senders.forEach((sender, i) => {
      const answered = result.createdBySender[i] ?? 0;
      const expected = setup.startCredits - setup.messageCredits * answered;
      const balance = balances.get(sender.userId);
      const count = storedBy.get(sender.profileId) ?? 0;
      if (balance !== expected) {
        wrongBalance += 1;
        if (examples.length < 5) examples.push(`sender ${i + 1}: balance ${balance ?? "missing"}, expected ${expected} (${setup.startCredits} − ${setup.messageCredits} × ${answered})`);
      }
      if (count !== answered) {
        wrongCount += 1;
        if (examples.length < 5) examples.push(`sender ${i + 1}: ${count} messages stored, ${answered} answered 201`);
      }
    });
    const messagesStored = stored.reduce((a, r) => a + Number(r.n), 0);
    const ledgerMessageRows = Number(ledger?.n ?? 0);
    const membersCount = Number(members?.members ?? 0);
    const membersLedgerNotBalance = Number(members?.mismatched ?? 0);
    const problems: string[] = [];
    if (messagesStored !== result.createdTotal) problems.push(`${messagesStored} messages stored for ${result.createdTotal} answers 201`);
    const expectedLedgerRows = setup.messageCredits > 0 ? result.createdTotal : 0;
    if (ledgerMessageRows !== expectedLedgerRows) problems.push(`${ledgerMessageRows} ledger message rows, expected ${expectedLedgerRows}`);
    if (wrongBalance) problems.push(`${wrongBalance} sender balance(s) off`);
    if (wrongCount) problems.push(`${wrongCount} sender(s) with a message count off`);
    if (membersLedgerNotBalance) problems.push(`${membersLedgerNotBalance} of ${membersCount} members with SUM(ledger) ≠ credits`);
    // A send that got no answer (connection error, timeout) may or may not be stored: the check cannot call that exact.
    if (result.errors) problems.push(`${result.errors} send(s) without an answer, so the expected figures are uncertain`);
    const exact = problems.length === 0;
    return {
      exact,
      summary: exact
        ? `exact: ${messagesStored} messages = 201 answers, ${setup.senders.length} balances = start − ${setup.messageCredits} × sent, SUM(ledger) = credits for all ${membersCount} members`
        : `MISMATCH: ${problems.join("; ")}`,
      messageCredits: setup.messageCredits,
      startCredits: setup.startCredits,
      answered201: result.createdTotal,
      messagesStored,
      ledgerMessageRows,
      sendersWithWrongBalance: wrongBalance,
      sendersWithWrongMessageCount: wrongCount,
      members: membersCount,
      membersLedgerNotBalance,
      examples,
    };
  } finally {
    await database.close();
  }
}
