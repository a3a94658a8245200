import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { openDatabase } from "../../api/db/client";
import { addStaffWithSetupLink } from "../../api/domain/staff/setup";
import { totpCode } from "../../api/domain/staff/totp";
import { expect, expectPath, hydrated, projectRoot, test } from "./fixtures";
import { childEnv, start, stop, waitHealthy, type Managed } from "./processes";

/**
 * Staff set-up (docs/staff.md, Making staff accounts): a new staff member opens their set-up link, enrols the secret the page shows (QR
 * code or key), chooses a password, sees the ten recovery codes once, and logs in. The link is made with the domain
 * function `npm run staff -- add` uses (scripts/staff.ts), which needs the database: the embedded PGlite has one
 * process per database, so this file runs its own api and web, 20 ports above the suite's (4120 and 4121 by
 * default), on a data directory it prepares before the api starts (the api then adds the demo data, not the demo
 * staff), on the production build the main webServer made. Once without JavaScript, once with.
 */
const webPort = Number(process.env.E2E_PORT ?? 4100) + 20;
const apiPort = webPort + 1;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://localhost:${webPort}`;
const password = "my-staff-password";

type Setup = { email: string; name: string; token: string };
const setups: Record<"nojs" | "js", Setup> = {} as Record<"nojs" | "js", Setup>;
const children: Managed[] = [];
let dataDir: string | null = null;

// One api and web for the file's tests, one after the other.
test.describe.configure({ mode: "serial" });
test.use({ baseURL: webUrl });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  expect(existsSync(path.join(projectRoot, "build/server/index.js")), "the production build exists").toBe(true);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "rendezvous-e2e-staff-setup-"));
  const secret = randomBytes(32).toString("base64url");
  const database = await openDatabase({ dataDir });
  try {
    for (const kind of ["nojs", "js"] as const) {
      const email = `new-admin-${kind}@example.com`;
      const name = `New Admin ${kind}`;
      const outcome = await addStaffWithSetupLink(database.db, secret, { email, name, role: "admin", siteIds: [] });
      if (outcome.kind !== "ok") throw new Error(`no set-up link: ${outcome.kind}`);
      setups[kind] = { email, name, token: outcome.token };
    }
  } finally {
    await database.close();
  }
  const api = start("api", "api/main.ts", childEnv({ API_PORT: String(apiPort), API_HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO_DATA: "true", SESSION_SECRET: secret, PASSWORD_HASH_COST: "10", CLIENT_LIMIT_SCALE: "1000" }, ["NODE_ENV"]));
  children.push(api);
  const web = start("web", "server/main.ts", childEnv({ PORT: String(webPort), API_URL: apiUrl, NODE_ENV: "production" }));
  children.push(web);
  await waitHealthy(api, `${apiUrl}/healthz`, 150_000);
  await waitHealthy(web, `http://127.0.0.1:${webPort}/healthz`, 30_000);
});

test.afterAll(async () => {
  await Promise.all(children.map((managed) => stop(managed, "SIGTERM", 5000)));
  children.length = 0;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const managed of children) await testInfo.attach(`${managed.name}-output`, { body: managed.output.join(""), contentType: "text/plain" });
});

/** Enrols the shown secret (a wrong code first), sets the password, checks the recovery codes, logs in, and finds the link used up. */
async function setUpAndLogIn(page: Page, setup: Setup, options: { waitForHydration: boolean }): Promise<void> {
  const response = await page.goto(`/staff/setup/${setup.token}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Set up your staff account");
  await expect(page.getByTestId("staff-setup-account")).toHaveText(`Account: ${setup.email}`);
  const qr = page.locator("svg[data-testid=staff-setup-qr]");
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute("aria-label", "QR code of the key for your authenticator app");
  expect((await qr.locator("path").getAttribute("d"))?.length).toBeGreaterThan(1000);
  const secret = ((await page.getByTestId("staff-setup-secret").textContent()) ?? "").replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const submit = page.getByRole("button", { name: "Set up my account" });
  if (options.waitForHydration) await hydrated(submit);

  // A wrong code is refused on its field; the link stays good.
  const right = totpCode(secret);
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Repeat the password").fill(password);
  await page.getByLabel("Code from your authenticator app").fill(right === "000000" ? "111111" : "000000");
  await submit.click();
  await expect(page.getByText("This is not the current code for this key.", { exact: false })).toBeVisible();
  await expect(page.getByLabel("New password")).toHaveValue("");
  // The secret shown again is the same one.
  await expect(page.getByTestId("staff-setup-secret")).toHaveText(secret.replace(/(.{4})(?=.)/g, "$1 "));

  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Repeat the password").fill(password);
  await page.getByLabel("Code from your authenticator app").fill(totpCode(secret));
  await submit.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account is set up");
  await expect(page.getByText("they are shown only this once", { exact: false })).toBeVisible();
  const codes = page.getByTestId("staff-recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  for (const code of await codes.allTextContents()) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

  await page.getByRole("link", { name: "Go to the staff login" }).click();
  await expectPath(page, "/staff/login");
  await page.getByLabel("E-mail address").fill(setup.email);
  await page.getByLabel("Password").fill(password);
  // The enrolment code's step counts as used: the next step's code (the api accepts one step either side).
  await page.getByLabel("Code from your authenticator app").fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole("button", { name: "Log in" }).click();
  await expectPath(page, "/staff");
  await expect(page.getByTestId("staff-who")).toHaveText(`${setup.name}, admin`);

  // The link is used up: a page that says so, 404.
  const again = await page.goto(`/staff/setup/${setup.token}`);
  expect(again?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is no longer valid");
  await expect(page.getByTestId("staff-setup-invalid")).toHaveText("A set-up link works once and for 72 hours. Please ask an admin for a new one.");
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a set-up link enrols the authenticator, sets the password, shows the recovery codes once, and the account logs in", async ({ page }) => {
    await setUpAndLogIn(page, setups.nojs, { waitForHydration: false });
  });
});

test.describe("with JavaScript", () => {
  test("a set-up link enrols the authenticator, sets the password, shows the recovery codes once, and the account logs in", async ({ page }) => {
    await setUpAndLogIn(page, setups.js, { waitForHydration: true });
  });
});
