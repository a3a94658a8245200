import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";

export { expect };

/** Console errors a test provokes on purpose: why each is expected, and the message's pattern. */
export type ExpectedConsoleErrors = Record<string, RegExp>;

/**
 * What a page must not do while a test uses it: log `console.error`, throw an uncaught error
 * (`pageerror`, which is also how React reports a hydration mismatch in the production build), or
 * fail to load one of its own resources. Every page of every context of the test is watched, also
 * those of contexts the test makes itself with `browser.newContext()`.
 */
function watchPage(page: Page, problems: Problem[], expected: ExpectedConsoleErrors): void {
  // The kind of each answer of 400 and up (by URL), for the browser's "Failed to load resource" lines.
  const refusedKinds = new Map<string, string>();
  page.on("response", (response) => {
    if (response.status() >= 400) refusedKinds.set(response.url(), response.request().resourceType());
  });
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (Object.values(expected).some((pattern) => pattern.test(text))) return;
    // Remix 2's single fetch logs the AbortError of a revalidation that a newer navigation cancelled while its
    // body was arriving (@remix-run/react single-fetch.js, the catch around decodeViaTurboStream): the newer
    // navigation loads the data, nothing is lost. Only that exact message passes.
    if (/^AbortError: signal is aborted without reason(\n|$)/.test(text)) return;
    const url = message.location().url;
    const where = page.url();
    // Judged when the test ends, once every answer's event has arrived.
    problems.push(() => {
      // A 4xx answer to a document or to the page's own api call is an answer the product gives on
      // purpose (a 404 page, 402 "not enough credits"), and the tests assert it; Chromium still logs it
      // as "Failed to load resource". A 4xx image, script, style or font is a broken page: a defect.
      if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text) && answeredKinds.has(refusedKinds.get(url) ?? "")) return null;
      return `console.error on ${where}: ${text}${url ? ` (${url})` : ""}`;
    });
  });
  page.on("pageerror", (error) => {
    const problem = `uncaught error on ${page.url()}: ${error.stack ?? error.message}`;
    problems.push(() => problem);
  });
}
/** Resource kinds whose 4xx answers are the product's own answers (see watchPage). */
const answeredKinds = new Set(["document", "fetch", "xhr", "eventsource"]);

/** A console error or uncaught error, judged at the end of the test: its description, or null when it is fine. */
type Problem = () => string | null;

const watchedContexts = new WeakSet<BrowserContext>();

function watchContext(context: BrowserContext, problems: Problem[], expected: ExpectedConsoleErrors): void {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  for (const page of context.pages()) watchPage(page, problems, expected);
  context.on("page", (page) => watchPage(page, problems, expected));
}

/**
 * The suite's `test`:
 * - every context starts as a visitor who already passed the site-entry warning (docs/product.md §2: closing it
 *   stores a skipped timestamp), so the modal does not cover the pages these tests use.
 *   tests/e2e/entry-warning.spec.ts tests the warning itself. `test.use({ entryWarningSkipped: false })` turns it off.
 * - a test fails when one of its pages logs `console.error` or throws (see watchPage). A test that
 *   provokes an error on purpose lists it with the reason: `test.use({ expectedConsoleErrors: { "why": /message/ } })`.
 */
export const test = base.extend<{ entryWarningSkipped: boolean; expectedConsoleErrors: ExpectedConsoleErrors; pageProblems: Problem[] }>({
  entryWarningSkipped: [true, { option: true }],
  expectedConsoleErrors: [{}, { option: true }],
  pageProblems: [
    async ({ browser, expectedConsoleErrors }, provide) => {
      const problems: Problem[] = [];
      // Contexts the test makes itself are watched too, for the length of the test.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
        const context = await newContext(...args);
        watchContext(context, problems, expectedConsoleErrors);
        return context;
      };
      await provide(problems);
      browser.newContext = newContext;
      expect(problems.map((judge) => judge()).filter(Boolean), "the pages logged no console error and threw nothing").toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context, baseURL, entryWarningSkipped, pageProblems, expectedConsoleErrors }, provide) => {
    watchContext(context, pageProblems, expectedConsoleErrors);
    if (entryWarningSkipped) {
      // Cookies ignore the port: this one also reaches the servers of api-down.spec.ts on localhost.
      await context.addCookies([{ name: "site_entry_skipped", value: new Date().toISOString(), url: baseURL ?? "http://localhost:4100" }]);
    }
    await provide(context);
  },
});

/**
 * Clicks a button that posts (a like, for example) and waits for its POST's answer: with JavaScript a button may show its new state at once,
 * before the api has stored the change, so another member's page read right after could still miss it.
 */
export async function clickAndWaitForPost(page: Page, button: Locator): Promise<void> {
  const posted = page.waitForResponse((response) => response.request().method() === "POST");
  await button.click();
  expect((await posted).status()).toBeLessThan(400);
}

/** Waits until React has hydrated `element`: its handlers run from then on (before, a click is plain HTML). */
export async function hydrated(element: Locator): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactFiber$"))), { message: "element hydrated" })
    .toBe(true);
}

/**
 * Headers a browser puts on its own same-origin requests: test clients that call web's /api proxy
 * directly (no page) send them, or web refuses the call as cross-site (server/request-guard.ts).
 */
export const sameOrigin = { "Sec-Fetch-Site": "same-origin" };

/** The project's root folder (this file is tests/e2e/fixtures.ts). */
export const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The demo accounts api/db/seed.ts creates in a fresh data directory. */
export const accounts = {
  free: { email: "demo@example.com", password: "demo-password", name: "Dennis", credits: 20 },
  premium: { email: "premium@example.com", password: "demo-password", name: "Paula", credits: 500 },
  /** Signed up 5 hours before the demo data: past the time bonus, with the welcome discount. */
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

/** A locale's namespace as the app ships it (locales/<lng>/<ns>.json); a missing file fails the test. */
export function readLocale(locale: string, ns = "common"): Dictionary {
  const file = `${projectRoot}locales/${locale}/${ns}.json`;
  if (!existsSync(file)) throw new Error(`no locale file ${file}`);
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

/** The WCAG 2.1 A and AA rules, the level the site is held to. */
export const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
let axeSource: string | undefined;

/**
 * axe's violations of WCAG 2.1 AA on the page as it is now. No page of the site has a frame, so axe runs in its legacy
 * mode, in the page itself: the default mode opened a blank page for every audit and loaded axe into it again to merge
 * the frames' results in. With axe-core's minified build (0.65 MB; @axe-core/playwright loads the 1.5 MB one) and
 * only the violations kept, an audit went from 1.1-1.4 s to about 0.5 s here; the rules themselves run in under 0.1 s.
 * A page with a frame fails the first check: it would need the default mode's frame testing.
 */
export async function axeViolations(page: Page, where = page.url()) {
  expect(page.frames(), `${where} has a frame: audit it without setLegacyMode`).toHaveLength(1);
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  const results = await new AxeBuilder({ page, axeSource }).setLegacyMode().options({ resultTypes: ["violations"] }).withTags(wcagTags).analyze();
  return results.violations;
}

/** No axe violation (WCAG 2.1 A and AA) on the page as it is now: each violation, if any, as its rule and elements. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
