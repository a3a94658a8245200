/**
 * Operator reports: `npm run report -- attribution --from 2026-11-01 --to 2026-11-30 [--csv]`
 * (docs/attribution.md): visits, signups, paying members and revenue per network, ref and sub; and
 * `npm run report -- cam --from ... --to ...`: live-cam tile clicks per day and site (docs/product.md §1). As an
 * aligned table, or with --csv as CSV. On the embedded PGlite stop the api first (one process per
 * database); on PostgreSQL (DATABASE_URL) run it any time.
 */
import { loadApiConfig } from "../api/config";
import { openDatabase } from "../api/db/client";
import { attributionCsv, attributionReport, attributionTable } from "../api/domain/attribution";
import { camClicksCsv, camClicksReport, camClicksTable } from "../api/domain/cam";

const usage = "usage: npm run report -- attribution|cam --from YYYY-MM-DD --to YYYY-MM-DD [--csv]";
const reports = ["attribution", "cam"] as const;

/** The arguments, or an error message. */
export function parseReportArgs(argv: string[]): { report: (typeof reports)[number]; from: string; to: string; csv: boolean } | { error: string } {
  const args = argv.filter((a) => a !== "--");
  const report = reports.find((name) => name === args[0]);
  if (!report) return { error: usage };
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const day = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v) ? v : null);
  const from = day(value("--from"));
  const to = day(value("--to"));
  if (!from || !to) return { error: `--from and --to must be dates (YYYY-MM-DD)\n${usage}` };
  if (from > to) return { error: "--from must not be after --to" };
  return { report, from, to, csv: args.includes("--csv") };
}

async function main(): Promise<number> {
  const parsed = parseReportArgs(process.argv.slice(2));
  if ("error" in parsed) {
    console.error(parsed.error);
    return 2;
  }
  const config = loadApiConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    if (parsed.report === "cam") {
      const clicks = await camClicksReport(database.db, parsed.from, parsed.to);
      if (parsed.csv) process.stdout.write(camClicksCsv(clicks));
      else {
        console.log(`Live-cam tile clicks ${parsed.from} to ${parsed.to} (UTC days)\n`);
        console.log(clicks.length ? camClicksTable(clicks) : "No clicks in these days.");
      }
      return 0;
    }
    const rows = await attributionReport(database.db, parsed.from, parsed.to);
    if (parsed.csv) process.stdout.write(attributionCsv(rows));
    else {
      console.log(`Attribution ${parsed.from} to ${parsed.to} (UTC days; revenue: paid payments, refunds excluded)\n`);
      console.log(rows.length ? attributionTable(rows) : "No visits, signups or payments in these days.");
    }
    return 0;
  } finally {
    await database.close();
  }
}

if (process.argv[1]?.endsWith("report.ts")) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
