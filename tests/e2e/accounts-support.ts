import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, renameSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { simpleParser, type AddressObject } from "mailparser";
import { expect, test, sameOrigin } from "./fixtures";

/** A member of its own for one test: the demo accounts never get a wrong password (login throttle). */
export type TestAccount = { email: string; password: string; name: string };

export function newAccountDetails(): TestAccount {
  const id = randomUUID().slice(0, 8);
  return { email: `account-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, name: `Tester ${id}` };
}

/**
 * Signs up through the api (via web's /api proxy). Given the page's request context the page is
 * logged in as the new member afterwards; given the `request` fixture it stays a visitor.
 */
export async function signUp(request: APIRequestContext, account = newAccountDetails()): Promise<TestAccount> {
  const response = await request.post("/api/signup.php", {
    headers: sameOrigin,
    data: { email: account.email, name: account.name, date_of_birth: "1990-05-17", password: account.password, gender: "male", language: "en" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return account;
}

type MailKind = "activation" | "password_reset" | "email_change" | "reactivation" | "data_export";

function mailDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the suite through playwright.config.ts");
  return path.join(dataDir, "mail");
}

function addresses(to: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(to) ? to : to ? [to] : []).flatMap((a) => a.value.map((v) => v.address?.toLowerCase() ?? ""));
}

/** Each mail file's recipients and link, parsed once per worker: a written file never changes, and a run writes hundreds. */
const parsedMails = new Map<string, { to: string[]; link: string | undefined }>();

/** The links of every `kind` mail the api wrote (DATA_DIR/mail/*.eml) to `to`, oldest first. */
async function mailedLinks(to: string, kind: MailKind): Promise<string[]> {
  let files: string[];
  try {
    files = (await readdir(mailDir())).filter((f) => f.endsWith(".eml") && f.includes(`-${kind}-`)).sort();
  } catch {
    return [];
  }
  const links: string[] = [];
  for (const file of files) {
    let parsed = parsedMails.get(file);
    if (!parsed) {
      const mail = await simpleParser(await readFile(path.join(mailDir(), file)));
      parsed = { to: addresses(mail.to), link: /https?:\/\/\S+\?token=[\w-]+/.exec(mail.text ?? "")?.[0] };
      // A file still being written parses without its link: read it again on the next poll.
      if (parsed.link) parsedMails.set(file, parsed);
    }
    if (parsed.to.includes(to.toLowerCase()) && parsed.link) links.push(parsed.link);
  }
  return links;
}

/**
 * Waits for the `count`-th mail of `kind` to `to` and returns its link as a path with query
 * ("/reset-password/do?token=..."), to open on the test's own server.
 */
export async function mailLink(to: string, kind: MailKind, count = 1): Promise<string> {
  let links: string[] = [];
  await expect
    .poll(async () => (links = await mailedLinks(to, kind)).length, { message: `${kind} mail number ${count} to ${to}`, timeout: 10_000 })
    .toBeGreaterThanOrEqual(count);
  const url = new URL(links[count - 1] ?? "");
  // The api's configured origin (PUBLIC_URL in playwright.config.ts): this run's web, never a request's host.
  expect(`${url.protocol}//${url.port}`, "a mailed link opens this run's web").toBe(`http://${process.env.E2E_PORT ?? 4100}`);
  return url.pathname + url.search;
}

/** How many mails of `kind` went to `to` so far. */
export async function mailCount(to: string, kind: MailKind): Promise<number> {
  return (await mailedLinks(to, kind)).length;
}

/** A member of the tests' own, activated, with their own browser page. */
export type ActiveMember = TestAccount & { profileId: number; page: Page };

/** Where the member pool's members wait, one file each (member-pool.setup.ts makes them). */
export function memberPoolDir(): string {
  return path.join(path.dirname(mailDir()), "member-pool");
}

/**
 * A new member, activated as a person would: signup, then the link of the activation mail. `request`
 * is logged in as the member afterwards.
 */
export async function createActivatedMember(request: APIRequestContext): Promise<TestAccount & { profileId: number }> {
  const account = await signUp(request, newAccountDetails());
  const activated = await request.get(await mailLink(account.email, "activation"));
  expect(new URL(activated.url()).pathname, "the activation link leads to /activate/done").toBe("/activate/done");
  const me = (await (await request.get("/api/user.php")).json()) as { user: { status: string; profile: { id: number } } | null };
  expect(me.user?.status).toBe("active");
  return { ...account, profileId: me.user?.profile.id ?? 0 };
}

/** Takes the newest member of the pool (renaming its file is atomic: no two workers get the same one), or null when it is empty. */
function takeFromPool(): (TestAccount & { profileId: number }) | null {
  const dir = memberPoolDir();
  let files: string[];
  try {
    // Newest first: a test's members are then the site's newest (page 1 of the search), as freshly made ones were.
    files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort().reverse();
  } catch {
    return null;
  }
  for (const file of files) {
    const taken = path.join(dir, `${file}.taken-${process.pid}`);
    try {
      renameSync(path.join(dir, file), taken);
    } catch {
      continue; // another worker was first
    }
    return JSON.parse(readFileSync(taken, "utf8")) as TestAccount & { profileId: number };
  }
  return null;
}

/**
 * An activated member in a browser context of their own (with the project's JavaScript setting): one
 * of the pool, logged in; a new one (signup and activation mail) once the pool is used up, or with
 * `fresh` (a test that needs the site's newest members: page 1 of the search).
 */
export async function activeMember(browser: Browser, baseURL: string, options: { fresh?: boolean } = {}): Promise<ActiveMember> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: test.info().project.use.javaScriptEnabled });
  await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL }]);
  const page = await context.newPage();
  const pooled = options.fresh ? null : takeFromPool();
  if (!pooled) return { ...(await createActivatedMember(page.request)), page };
  const login = await page.request.post("/api/user.php", { headers: sameOrigin, data: { email: pooled.email, password: pooled.password } });
  expect(login.status(), await login.text()).toBe(200);
  return { ...pooled, page };
}

/**
 * For a spec whose tests make members with pages of their own: the maker, and their deletion after each test,
 * so they do not crowd other tests' searches.
 */
export function membersDeletedAfterEach(): (browser: Browser, baseURL: string | undefined) => Promise<ActiveMember> {
  const created: ActiveMember[] = [];
  test.afterEach(async () => {
    for (const member of created.splice(0)) {
      const deleted = await member.page.request.post("/api/delete-account.php", { headers: sameOrigin, data: { password: member.password } });
      expect(deleted.status(), "test member deleted").toBe(200);
      await member.page.context().close();
    }
  });
  return async (browser, baseURL) => {
    const member = await activeMember(browser, baseURL ?? "");
    created.push(member);
    return member;
  };
}
