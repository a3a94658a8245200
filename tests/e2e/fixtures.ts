import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test as base, expect, type Locator, type Page } from "@playwright/test";

export { expect };

/**
 * The suite's `test`: every context starts as a visitor who already passed the site-entry warning
 * (spec 2: closing it stores a skipped timestamp), so the modal does not cover the pages these tests
 * use. tests/e2e/entry-warning.spec.ts tests the warning itself. `test.use({ entryWarningSkipped: false })` turns it off.
 */
export const test = base.extend<{ entryWarningSkipped: boolean }>({
  entryWarningSkipped: [true, { option: true }],
  context: async ({ context, baseURL, entryWarningSkipped }, provide) => {
    if (entryWarningSkipped) {
      // Cookies ignore the port: this one also reaches the servers of api-down.spec.ts on localhost.
      await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "http://localhost:4100" }]);
    }
    await provide(context);
  },
});

/** The project's root folder (this file is tests/e2e/fixtures.ts). */
/**
 * Headers a browser puts on its own same-origin requests: test clients that call web's /api proxy
 * directly (no page) send them, or web refuses the call as cross-site (server/request-guard.ts).
 */
export const sameOrigin = { "Sec-Fetch-Site": "same-origin" };

export const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The demo accounts api/db/seed.ts creates in a fresh data directory. */
export const accounts = {
  free: { email: "demo@example.com", password: "demo-password", name: "Dennis", credits: 20 },
  premium: { email: "premium@example.com", password: "demo-password", name: "Paula", credits: 500 },
  /** Signed up 5 hours before the demo data: past the time bonus, with the welcome discount (issue 16). */
  welcome: { email: "welcome@example.com", password: "demo-password", name: "Walter", credits: 20 },
} as const;
export type Account = (typeof accounts)[keyof typeof accounts];

/**
 * An address no account has: wrong passwords are only ever sent for these, never for the demo
 * accounts, which 5 failures in 15 minutes would block for every other test.
 */
export function unknownEmail(): string {
  return `wrong-${randomUUID()}@example.com`;
}

export type Dictionary = { [key: string]: string | Dictionary };

/** A locale's namespace as the app ships it (locales/<lng>/<ns>.json), or null while it does not exist. */
export function readLocale(locale: string, ns = "common"): Dictionary | null {
  const file = `${projectRoot}locales/${locale}/${ns}.json`;
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as Dictionary;
}

/** A plain string of a dictionary by dotted key ("nav.login"); fails the test when it is missing. */
export function text(dictionary: Dictionary, key: string): string {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`no string "${key}" in the locale file`);
  return node;
}

/** Waits until the page's path (and optionally query) is exactly `expected`. */
export async function expectPath(page: Page, expected: string, options: { withSearch?: boolean } = {}): Promise<void> {
  await expect
    .poll(() => {
      const url = new URL(page.url());
      return options.withSearch ? url.pathname + url.search : url.pathname;
    }, { message: `page path should become ${expected}` })
    .toBe(expected);
}

export async function expectHtmlLang(page: Page, lang: string): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
}

/** The site header (brand, main navigation, language menu). */
export function header(page: Page): Locator {
  return page.getByRole("banner");
}

/** The brand link in the header: its accessible name is the site name. */
export function brandLink(page: Page, siteName = "Rendezvous"): Locator {
  return header(page).getByRole("link", { name: siteName, exact: true });
}

/** Logs in through the form on /login and waits for the member search. */
export async function login(page: Page, account: Account): Promise<void> {
  await page.goto("/login");
  await fillLogin(page, account.email, account.password);
  await expectPath(page, "/members");
  await expect(page.getByTestId("account-menu")).toBeVisible();
}

/** Logs out as a member would without the menu: GET /logout asks, its button posts (logout is POST only). */
export async function logout(page: Page): Promise<void> {
  await page.goto("/logout");
  await page.getByRole("main").getByRole("button", { name: "Logout", exact: true }).click();
  await expectPath(page, "/");
}

export async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
}

/** Opens the account dropdown (a <details>) and returns it. */
export async function openAccountMenu(page: Page): Promise<Locator> {
  const menu = page.getByTestId("account-menu");
  await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  return menu;
}

/** Opens the language dropdown and submits the language with this (native) name, e.g. "Nederlands". */
export async function chooseLanguage(page: Page, languageName: string): Promise<void> {
  const menu = page.getByTestId("language-menu");
  await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  await menu.getByRole("button", { name: languageName, exact: true }).click();
}

/** The visible text of the whole document. */
export async function pageText(page: Page): Promise<string> {
  return page.locator("body").innerText();
}
