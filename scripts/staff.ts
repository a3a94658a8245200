/**
 * Staff accounts from the command line (docs/staff.md), e.g. the first admin of a deployment:
 *
 *   npm run staff -- add --email E --role admin|moderator|support|operator [--name N] [--sites 1,2]
 *   npm run staff -- link --email E
 *
 * `add` makes an account without a password or second factor; `link` makes a new set-up link for an existing one (a
 * lost phone), which ends its password, second factor and sessions until the link is used. Both print one line: the
 * set-up link (single use, 72 hours), where the staff member sets a password and enrols an authenticator app. A
 * refusal is one line on stderr and exit code 1; a wrong command line exit code 2.
 *
 * No audit entry: audit_log names the staff member who acted (staff_user_id is not null) and here none does; the
 * set-up itself is recorded when the link is used (api/domain/staff/setup.ts).
 * On the embedded PGlite stop the api first (one process per database); on PostgreSQL run it any time.
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { Email, text } from "#contract/input";
import { loadApiConfig } from "../api/config";
import { openDatabase } from "../api/db/client";
import { staffRoles, staffUsers, type StaffRole } from "../api/db/schema";
import { addStaffWithSetupLink, renewSetupLink, setupLink, setupLinkOrigin, unknownSiteIds } from "../api/domain/staff/setup";

const usage = "usage: npm run staff -- add --email E --role admin|moderator|support|operator [--name N] [--sites 1,2]\n       npm run staff -- link --email E";

/** A refusal: its one line, and exit code 1 (2 for a command line that is not one of the two). */
class Refusal extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const Name = text(100, { min: 1, trim: true });

function emailOf(value: string | undefined): string {
  if (value === undefined) throw new Refusal("Give the account's e-mail address with --email.", 2);
  const parsed = Email.safeParse(value);
  if (!parsed.success) throw new Refusal(`Not a valid e-mail address: ${JSON.stringify(value)}.`);
  return parsed.data;
}

function roleOf(value: string | undefined): StaffRole {
  if (value === undefined) throw new Refusal(`Give the account's role with --role: ${staffRoles.join(", ")}.`, 2);
  const role = staffRoles.find((known) => known === value.trim().toLowerCase());
  if (!role) throw new Refusal(`Unknown role ${JSON.stringify(value)}: one of ${staffRoles.join(", ")}.`);
  return role;
}

function siteIdsOf(value: string | undefined): number[] {
  if (value === undefined || value.trim() === "") return [];
  const parts = value.split(",").map((part) => part.trim());
  if (!parts.every((part) => /^\d{1,9}$/.test(part) && Number(part) > 0)) throw new Refusal(`--sites takes site ids separated by commas (e.g. 1,2), not ${JSON.stringify(value)}.`);
  return [...new Set(parts.map(Number))];
}

function nameOf(value: string | undefined, email: string): string {
  if (value === undefined) return email.slice(0, email.indexOf("@")).slice(0, 100);
  const parsed = Name.safeParse(value);
  if (!parsed.success) throw new Refusal("--name takes 1 to 100 characters without control characters.");
  return parsed.data;
}

function commandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv.filter((arg) => arg !== "--"),
      options: { email: { type: "string" }, role: { type: "string" }, name: { type: "string" }, sites: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\n${usage}`, 2);
  }
}

async function main(argv: string[]): Promise<string> {
  const parsed = commandLine(argv);
  const [command, ...rest] = parsed.positionals;
  if ((command !== "add" && command !== "link") || rest.length > 0) throw new Refusal(usage, 2);
  const { values } = parsed;
  const email = emailOf(values.email);
  if (command === "link" && (values.role !== undefined || values.name !== undefined || values.sites !== undefined)) {
    throw new Refusal("link takes only --email: the account keeps its name, role and sites.", 2);
  }
  const role = command === "add" ? roleOf(values.role) : null;
  const name = nameOf(values.name, email);
  const siteIds = siteIdsOf(values.sites);

  const config = loadApiConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const { db } = database;
    const noOrigin = `PUBLIC_URL (${config.PUBLIC_URL}) names {domain} and there is no site to take it from: set PUBLIC_URL to the origin of the staff pages, e.g. https://dates.example.`;
    if (role) {
      const unknown = await unknownSiteIds(db, siteIds);
      if (unknown.length) throw new Refusal(`No site with id ${unknown.join(", ")}.`);
      // Checked before the account is made: a link that cannot be printed would leave an account nobody can set up.
      const origin = await setupLinkOrigin(db, config.PUBLIC_URL, { role, siteIds });
      if (!origin) throw new Refusal(noOrigin);
      const outcome = await addStaffWithSetupLink(db, config.SESSION_SECRET, { email, name, role, siteIds });
      if (outcome.kind === "email_taken") throw new Refusal(`There is already a staff account with the e-mail address ${email}; \`npm run staff -- link --email ${email}\` makes it a new set-up link.`);
      if (outcome.kind === "unknown_sites") throw new Refusal(`No site with id ${outcome.siteIds.join(", ")}.`);
      return setupLink(origin, outcome.token);
    }
    const [account] = await db.select({ role: staffUsers.role, siteIds: staffUsers.siteIds }).from(staffUsers).where(eq(staffUsers.email, email));
    if (!account) throw new Refusal(`There is no staff account with the e-mail address ${email}.`);
    // Checked before the account's password and second factor are cleared, as for add.
    const origin = await setupLinkOrigin(db, config.PUBLIC_URL, account);
    if (!origin) throw new Refusal(noOrigin);
    const outcome = await renewSetupLink(db, config.SESSION_SECRET, email);
    if (outcome.kind === "not_found") throw new Refusal(`There is no staff account with the e-mail address ${email}.`);
    if (outcome.kind === "disabled") throw new Refusal(`The staff account ${email} is disabled: a set-up link would not open it.`);
    return setupLink(origin, outcome.token);
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (link) => {
    console.log(link);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof Refusal ? error.exitCode : 1);
  },
);
