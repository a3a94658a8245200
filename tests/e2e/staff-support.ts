import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { MembersResponse } from "#contract/members";
import { totpCode, totpPeriodSeconds } from "../../api/domain/staff/totp";
import { demoStaff, demoTotpSecret } from "../../api/db/seed-staff";
import { demoPassword } from "../../api/db/seed";

export type DemoStaffRole = (typeof demoStaff)[number]["role"];

const stepMs = totpPeriodSeconds * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A TOTP code for a demo staff account that no test has used yet: a code logs in once (api/domain/staff/login.ts),
 * and the browser tests run in two workers. The last step used per account is kept in the run's data directory
 * under a lock (a directory made atomically); the api accepts the step before, the current and the next one, so a
 * test waits only when the current and the next step are used up.
 */
export async function freshStaffCode(role: DemoStaffRole): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "/tmp", "staff-totp");
  mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, `${role}.lock`);
  const file = path.join(dir, `${role}.step`);
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (tries > 400) throw new Error(`the TOTP lock of ${role} stays taken`);
      await sleep(50);
    }
  }
  try {
    for (;;) {
      const now = Date.now();
      const current = Math.floor(now / stepMs);
      let last = -1;
      try {
        last = Number(readFileSync(file, "utf8"));
      } catch {
        // No code used yet in this run.
      }
      // The current step or the next (the api accepts one step either side), never one used before; a step that
      // ends within 5 s is skipped: the code must still be good when the request arrives.
      const step = Math.max(last + 1, (current + 1) * stepMs - now < 5000 ? current + 1 : current);
      if (step <= current + 1) {
        writeFileSync(file, String(step));
        return totpCode(demoTotpSecret, step * stepMs + 1000);
      }
      await sleep(step * stepMs - stepMs - now + 50);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export function demoStaffEmail(role: DemoStaffRole): string {
  const staff = demoStaff.find((s) => s.role === role);
  if (!staff) throw new Error(`no demo staff account for ${role}`);
  return staff.email;
}

/** Where a role's staff session of this run is kept for the tests that only need to be logged in. */
const sessionFile = (role: DemoStaffRole) => path.join(process.env.E2E_DATA_DIR ?? "/tmp", "staff-totp", `${role}.session.json`);

/**
 * Logs a demo staff member in through the staff login page (with or without JavaScript), and keeps the session for
 * the run: a TOTP code logs in once, so a role can log in about twice a minute, and many tests need staff. Later
 * calls reuse the kept session (its cookies) while it lives; `fresh` logs in through the form regardless (a test
 * about the login itself or its audit entry).
 */
export async function staffLogin(page: Page, role: DemoStaffRole, options: { fresh?: boolean } = {}): Promise<void> {
  if (!options.fresh) {
    try {
      const cookies = JSON.parse(readFileSync(sessionFile(role), "utf8")) as Parameters<ReturnType<Page["context"]>["addCookies"]>[0];
      await page.context().addCookies(cookies);
      await page.goto("/staff");
      if (new URL(page.url()).pathname === "/staff") return;
    } catch {
      // No kept session yet (or an unreadable one): log in.
    }
  }
  await page.goto("/staff/login");
  await page.getByLabel("E-mail address").fill(demoStaffEmail(role));
  await page.getByLabel("Password").fill(demoPassword);
  await page.getByLabel("Code from your authenticator app").fill(await freshStaffCode(role));
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => url.pathname === "/staff");
  const cookies = (await page.context().cookies()).filter((cookie) => cookie.name === "rdv_staff");
  mkdirSync(path.dirname(sessionFile(role)), { recursive: true });
  const temporary = `${sessionFile(role)}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(cookies));
  renameSync(temporary, sessionFile(role));
}

/** A site-run profile of a member's search (the first within ten pages), for the operator inbox. */
export async function siteRunProfile(page: Page): Promise<{ id: number; name: string }> {
  for (let pageNumber = 1; pageNumber <= 10; pageNumber++) {
    const found = MembersResponse.parse(await (await page.request.get(`/api/members.php?page=${pageNumber}`)).json());
    const fictional = found.results.find((card) => card.fictional);
    if (fictional) return fictional;
    if (found.results.length === 0) break;
  }
  throw new Error("no site-run profile in the member's search");
}

/** A 1×1 GIF: what loadOnlyOwnPhotos answers for other tests' photos. */
const standInImage = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

/**
 * The staff queues show every pending photo of the sites, other tests' too, and a test running beside this one may
 * delete one of its photos (the files go at once) while a staff page shows it: that image would then fail to load
 * there, a failure of the other test's timing, not of the page. So the staff context's images of photos that are not
 * the test's own (`own`: their file names) are answered with a stand-in; the test's own photos load from the server.
 */
export async function loadOnlyOwnPhotos(page: Page, own: string[]): Promise<void> {
  await page.context().route("**/uploads/photos/**", (route) => {
    const name = new URL(route.request().url()).pathname.split("/").pop() ?? "";
    return own.includes(name) ? route.continue() : route.fulfill({ status: 200, contentType: "image/gif", body: standInImage });
  });
}

/** Follows a link of the admin's "Administration" menu in the staff navigation (a <details>: opened first). */
export async function adminMenuLink(page: Page, name: string): Promise<void> {
  const menu = page.getByTestId("staff-admin-menu");
  if ((await menu.getAttribute("open")) === null) await menu.locator("summary").click();
  await menu.getByRole("link", { name, exact: true }).click();
}
