/**
 * `npm run bench -- --scale` (with DATABASE_URL): one and two web + api pairs on PostgreSQL, in the same run and on
 * the same scratch database. Two apis and two webs run throughout (web N asks its own api first and the other one
 * when it refuses, server/api-instances.ts); "1 pair" loads web 1 and api 1 only, "2 pairs" splits the same
 * connections over both. Rows: the logged-in /members page and the paid sends (bench/paid-sends.ts), whose
 * accounting is checked over both phases at the end.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { answersOk, browserHeaders, expect200, logIn } from "./http";
import { cpuMs, waitForIdle } from "./cpu";
import { measure, warmUp, type LoadResult } from "./load";
import { ProcessGroup, freePort, waitUntil } from "./processes";
import { checkAccounting, prepareDatabase, runPaidSends, type PaidSendsResult } from "./paid-sends";
import { createScratchDatabase } from "./postgres";
import { serviceNodeFlags } from "../scripts/start-env";
import { ratio, table } from "./report";

export type ScaleRow = { pairs: 1 | 2; members: { reqPerSec: number; p99Ms: number; cpuMsPerRequest: number | null; non2xx: number }; paidSends: PaidSendsResult };
export type ScaleResult = { rows: ScaleRow[]; accounting: string; exact: boolean };

type Settings = { seconds: number; warmupSeconds: number; warmupMaxSeconds: number; connections: number; senders: number; startCredits: number; clientLimitScale: number };

export async function measureScale(
  databaseUrl: string,
  settings: Settings,
  helpers: { root: string; childEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv; log: (message: string) => void; cleanups: (() => Promise<void>)[] },
): Promise<ScaleResult> {
  const { log, childEnv } = helpers;
  const scratch = await createScratchDatabase(databaseUrl);
  helpers.cleanups.push(scratch.drop);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rdv-bench-scale-"));
  helpers.cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const secret = randomBytes(32).toString("base64url");
  const location = { databaseUrl: scratch.url, dataDir };
  log(`scale: demo data and ${settings.senders} paid senders...`);
  const senders = await prepareDatabase({ ...location, secret, senders: settings.senders, startCredits: settings.startCredits });
  const group = new ProcessGroup(helpers.root);
  helpers.cleanups.push(() => group.stopAll());
  try {
    const apiPorts = [await freePort(), await freePort()];
    const webPorts = [await freePort(), await freePort()];
    const apis = apiPorts.map((port) => `http://127.0.0.1:${port}`);
    const webs = webPorts.map((port) => `http://127.0.0.1:${port}`);
    for (const i of [0, 1]) {
      group.start(
        `api${i + 1}`,
        "api/main.ts",
        childEnv({ API_PORT: String(apiPorts[i]), API_HOST: "127.0.0.1", DATA_DIR: dataDir, SESSION_SECRET: secret, CLIENT_LIMIT_SCALE: String(settings.clientLimitScale), DATABASE_URL: scratch.url }),
        [],
        serviceNodeFlags,
      );
      group.start(`web${i + 1}`, "server/main.ts", childEnv({ PORT: String(webPorts[i]), HOST: "127.0.0.1", API_URL: `${apis[i]},${apis[1 - i]}` }), [], serviceNodeFlags);
    }
    for (const web of webs) await waitUntil(`${web}/healthz`, group, 180_000, () => answersOk(`${web}/healthz`));
    const cookie = await logIn(webs[0]!, "demo@example.com", "demo-password");
    const headers = { ...browserHeaders, cookie };
    for (const web of webs) await expect200(`${web}/members`, headers, /^text\/html/);
    const pids = () => ["api1", "api2", "web1", "web2"].map((name) => group.pid(name));
    const cpuOf = () => pids().reduce<number | null>((sum, pid) => (sum === null ? null : ((v) => (v === null ? null : sum + v))(cpuMs(pid))), 0);

    const rows: ScaleRow[] = [];
    const allSends: PaidSendsResult[] = [];
    for (const pairs of [1, 2] as const) {
      const used = webs.slice(0, pairs);
      const split = Math.max(1, Math.round(settings.connections / pairs));
      log(`scale: ${pairs} pair(s): /members, warm-up until steady (${settings.warmupSeconds}-${settings.warmupMaxSeconds} s) + ${settings.seconds} s with ${settings.connections} connections...`);
      await Promise.all(used.map((web) => warmUp(`${web}/members`, { seconds: settings.warmupSeconds, maxSeconds: settings.warmupMaxSeconds, connections: split, headers })));
      await waitForIdle(pids());
      group.check();
      const before = cpuOf();
      const loads: LoadResult[] = await Promise.all(used.map((web, i) => measure(`web ${i + 1} /members`, `${web}/members`, { seconds: settings.seconds, connections: split, headers })));
      const after = cpuOf();
      const requests = loads.reduce((a, r) => a + r.requests, 0);
      rows.push({
        pairs,
        members: {
          reqPerSec: loads.reduce((a, r) => a + r.reqPerSec, 0),
          p99Ms: Math.max(...loads.map((r) => r.latencyMs.p99)),
          cpuMsPerRequest: before === null || after === null || requests === 0 ? null : (after - before) / requests,
          non2xx: loads.reduce((a, r) => a + r.non2xx + r.errors, 0),
        },
        paidSends: null as unknown as PaidSendsResult,
      });
      log(`scale: ${pairs} pair(s): paid sends...`);
      const sends = await runPaidSends(apis.slice(0, pairs), senders, {
        seconds: settings.seconds,
        warmupSeconds: settings.warmupSeconds,
        connections: settings.connections,
        beforeMeasure: async () => {
          await waitForIdle(pids());
          group.check();
        },
        cpu: cpuOf,
      });
      rows[rows.length - 1]!.paidSends = sends;
      allSends.push(sends);
    }
    await group.stopAll();
    // Both phases' answers against the database (the senders are the same members).
    const createdBySender = senders.senders.map((_, i) => allSends.reduce((a, s) => a + (s.createdBySender[i] ?? 0), 0));
    const accounting = await checkAccounting(location, senders, {
      createdBySender,
      createdTotal: createdBySender.reduce((a, b) => a + b, 0),
      errors: allSends.reduce((a, s) => a + s.errors, 0),
    });
    return { rows, accounting: accounting.summary, exact: accounting.exact };
  } finally {
    await group.stopAll();
  }
}

export function scaleTable(result: ScaleResult): string {
  const one = result.rows.find((r) => r.pairs === 1);
  return table(
    ["web + api pairs", "/members req/s", "p99 ms", "CPU ms/page (4 processes)", "non-2xx", "paid sends/s", "sends p99 ms", "CPU ms/send", "vs 1 pair (pages, sends)"],
    result.rows.map((r) => [
      String(r.pairs),
      r.members.reqPerSec.toFixed(1),
      String(Math.round(r.members.p99Ms)),
      r.members.cpuMsPerRequest === null ? "n/a" : r.members.cpuMsPerRequest.toFixed(2),
      String(r.members.non2xx),
      r.paidSends.sendsPerSec.toFixed(1),
      String(Math.round(r.paidSends.latencyMs.p99)),
      r.paidSends.cpuMsPerSend.api == null ? "n/a" : r.paidSends.cpuMsPerSend.api.toFixed(2),
      !one || r === one ? "1" : `${ratio(r.members.reqPerSec, one.members.reqPerSec)}, ${ratio(r.paidSends.sendsPerSec, one.paidSends.sendsPerSec)}`,
    ]),
  );
}
