/**
 * `npm run seed -- --preset large` (or `--members N --messages N`, see api/db/scale-data.ts for the presets): fills the
 * database the api would use (DATABASE_URL, else PGlite in DATA_DIR) with a real site's shape in bulk SQL, on top of
 * the demo data it makes first as the api does. For measuring at size (docs/performance.md); refused in production
 * mode and on a database that holds anything but the demo data. On the embedded database stop the site first.
 */
import { loadApiConfig } from "../api/config";
import { openDatabase } from "../api/db/client";
import { seedDemoData } from "../api/db/seed";
import { seedDemoStaff } from "../api/db/seed-staff";
import { generateScaleData, scalePresets, type ScaleOptions } from "../api/db/scale-data";

const usage = `usage: npm run seed -- [--preset ${Object.keys(scalePresets).join("|")}] [--members N] [--other-members N] [--messages N] [--likes-per-member N]`;

/** The options, or an error message. */
export function parseSeedArgs(argv: string[]): ScaleOptions | { error: string } {
  const args = argv.filter((a) => a !== "--");
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const known = new Set(["--preset", "--members", "--other-members", "--messages", "--likes-per-member"]);
  const unknown = args.filter((a, i) => a.startsWith("--") && !known.has(a) && !(i > 0 && known.has(args[i - 1] ?? "")));
  if (unknown.length) return { error: `unknown option ${unknown[0]}\n${usage}` };
  const presetName = value("--preset") ?? "small";
  const preset = scalePresets[presetName];
  if (!preset) return { error: `unknown preset ${presetName}\n${usage}` };
  const options = { ...preset };
  const numbers: [string, keyof ScaleOptions, number][] = [
    ["--members", "members", 10_000_000],
    ["--other-members", "otherMembers", 10_000_000],
    ["--messages", "messages", 200_000_000],
    ["--likes-per-member", "likesPerMember", 100],
  ];
  for (const [flag, key, max] of numbers) {
    const raw = value(flag);
    if (raw === undefined) continue;
    const n = Number(raw.replace(/_/g, ""));
    if (!Number.isInteger(n) || n < (key === "members" ? 1 : 0) || n > max) return { error: `${flag} must be a whole number from ${key === "members" ? 1 : 0} to ${max}\n${usage}` };
    options[key] = n;
  }
  return options;
}

async function main(): Promise<number> {
  const options = parseSeedArgs(process.argv.slice(2));
  if ("error" in options) {
    console.error(options.error);
    return 2;
  }
  const config = loadApiConfig();
  if (config.APP_MODE === "production") {
    console.error("npm run seed makes test data: it is refused in production mode");
    return 2;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const seeded = await seedDemoData(database.db, { uploadsDir: `${config.DATA_DIR}/uploads` });
    if (seeded) await seedDemoStaff(database.db, config.SESSION_SECRET);
    const session = await database.session();
    try {
      const [found] = (await session.exec("select exists (select 1 from users where email like '%@scale.example') as generated")).rows;
      if (found?.generated) {
        console.error("this database holds generated data already: start from an empty one");
        return 2;
      }
      const started = Date.now();
      console.log(`generating ${JSON.stringify(options)} on ${database.kind === "postgres" ? "PostgreSQL" : `PGlite in ${config.DATA_DIR}`}`);
      const counts = await generateScaleData(session.exec, options, (line) => console.log(`  ${line}`));
      console.log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s: ${Object.entries(counts).map(([table, n]) => `${table} ${n.toLocaleString("en")}`).join(", ")}`);
    } finally {
      await session.release();
    }
  } finally {
    await database.close();
  }
  return 0;
}

process.exitCode = await main();
