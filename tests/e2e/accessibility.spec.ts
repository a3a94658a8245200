import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import sharp from "sharp";
import type { Page } from "@playwright/test";
import { TeasersResponse } from "#contract/members";
import { axeViolations, expect, hydrated, projectRoot, sameOrigin, test, wcagTags } from "./fixtures";
import { activeMember, type ActiveMember } from "./accounts-support";
import { loadOnlyOwnPhotos, siteRunProfile, staffLogin } from "./staff-support";

/**
 * Accessibility (docs/testing.md): axe (WCAG 2.1 A and AA) and the cumulative layout shift (under 0.01) on every page of the site, with
 * JavaScript on, as a visitor and as a logged-in member, and with the dialogs a page opens by itself. A test fails on any violation and prints each
 * one's rule, the elements (targets) and the rule's help.
 *
 * `pages` has an entry for every file in app/routes (the last test fails when a route file has none), so a new
 * page must be added here: the paths (with sample params) it is audited at, and as whom; or why it is no page.
 * One test per group of pages, each reusing one browser context.
 */

/** Sample params the groups fill in: a demo member, a package, and the member's own conversation and purchase. */
type Samples = { member: number; packageId: number; conversation: number; payment: number; checkout: string; transaction: number; report: number; staffMember: number; email: string; inboxConversation: number; siteRunProfile: number };

/** A page as audited: its path and, when it differs (a redirect that stays), the path it must end on. */
/**
 * A page as audited: its path; `react: false` for a page without React (no hydration to wait for); `described: false`
 * for an error page, which has no meta description of its own (every other page has one, in its language).
 */
type Visit = { path: string; react?: false; described?: false };

type Group = "visitor" | "lander" | "social" | "account" | "purchase" | "staff";
type Entry = { group: Group; visits: (s: Samples) => Visit[] } | { notAPage: string };

const at = (...paths: string[]): Visit[] => paths.map((path) => ({ path }));

const pages: Record<string, Entry> = {
  "$.tsx": { group: "visitor", visits: () => [{ path: "/no-such-page", described: false }] },
  "_index.tsx": { group: "visitor", visits: () => at("/") },
  "account-deleted.tsx": { group: "visitor", visits: () => at("/account-deleted") },
  "activate.done.tsx": { group: "visitor", visits: () => at("/activate/done") },
  "activate.error.tsx": { group: "visitor", visits: () => at("/activate/error") },
  "activation-mail.tsx": { notAPage: "a POST only (resend the activation mail); its forms are on the member's pages" },
  "chats.tsx": { group: "social", visits: () => at("/chats") },
  "chats_.$id.tsx": { group: "social", visits: (s) => at(`/chats/${s.conversation}`) },
  "complaints.tsx": { group: "visitor", visits: () => at("/complaints") },
  "complete-signup.tsx": { group: "social", visits: () => at("/complete-signup") },
  "credits.$id.($method).tsx": { group: "account", visits: (s) => at(`/credits/${s.packageId}`, `/credits/${s.packageId}/ideal`) },
  "credits._index.tsx": { group: "account", visits: () => at("/credits") },
  "credits.repeat-order.tsx": { group: "purchase", visits: () => at("/credits/repeat-order") },
  "directdebit.tsx": { group: "account", visits: (s) => at(`/directdebit?package=${s.packageId}`) },
  "dismiss.tsx": { notAPage: "a POST only (dismiss a banner)" },
  "cam.$slot.$tile.tsx": { notAPage: "a live-cam tile's click: counted, then a redirect to the partner" },
  "landers.alonetonight.($slug).tsx": { group: "lander", visits: () => at("/landers/alonetonight/bdsm") },
  "landers.collagelanding.($slug).tsx": { group: "lander", visits: () => at("/landers/collagelanding/MILF") },
  "landers.gallery.($slug).tsx": { group: "lander", visits: () => at("/landers/gallery/discreet") },
  "landers.iconslanding.($slug).tsx": { group: "lander", visits: () => at("/landers/iconslanding") },
  "landers.maplanding.($slug).tsx": { group: "lander", visits: () => at("/landers/maplanding") },
  "landers.socialnetwork.($slug).tsx": { group: "lander", visits: () => at("/landers/socialnetwork") },
  "landers.tinderswipe.tsx": { group: "lander", visits: () => at("/landers/tinderswipe") },
  "landers.transitionsvideolanding.($slug).tsx": { group: "lander", visits: () => at("/landers/transitionsvideolanding") },
  "landers.video.($slug).tsx": { group: "lander", visits: () => at("/landers/video") },
  "lang-config.tsx": { group: "visitor", visits: () => at("/lang-config") },
  "likes.$type.tsx": { group: "social", visits: () => at("/likes/matches", "/likes/received") },
  "likes._index.tsx": { notAPage: "redirects to /likes/matches" },
  "likes.m.$id.tsx": { notAPage: "redirects to the member's page (/members/{id}?from=likes)" },
  "login.tsx": { group: "visitor", visits: () => at("/login") },
  "logout.tsx": { group: "social", visits: () => at("/logout") },
  "mail-change.do.tsx": { group: "visitor", visits: () => at("/mail-change/do?token=not-a-token") },
  "match-finder.tsx": { group: "social", visits: () => at("/match-finder") },
  "members.$id.tsx": { group: "social", visits: (s) => at(`/members/${s.member}`) },
  "members._index.tsx": { group: "social", visits: () => at("/members") },
  "members_.$id.block.tsx": { group: "social", visits: (s) => at(`/members/${s.member}/block`) },
  "members_.$id.report.tsx": { group: "social", visits: (s) => at(`/members/${s.member}/report`) },
  "members_.$id.chat.tsx": { group: "social", visits: (s) => at(`/members/${s.member}/chat`) },
  "members_.$id.landing.tsx": { group: "lander", visits: (s) => at(`/members/${s.member}/landing`) },
  "members_.$id.landing2.($slug).tsx": { group: "lander", visits: (s) => at(`/members/${s.member}/landing2/bdsm`) },
  "members_.$id.landing3.($slug).tsx": { group: "lander", visits: (s) => at(`/members/${s.member}/landing3/gay`) },
  "members_.$id.like.tsx": { notAPage: "a POST only (like a member)" },
  "members_.$id.signup.tsx": { group: "lander", visits: (s) => at(`/members/${s.member}/signup`) },
  "notifications.tsx": { group: "account", visits: () => at("/notifications") },
  "offline.tsx": { group: "visitor", visits: () => [{ path: "/offline", react: false, described: false }] },
  "pages.$page.tsx": { group: "visitor", visits: () => at("/pages/faq") },
  "payment.$id.tsx": { group: "purchase", visits: (s) => at(`/payment/${s.payment}`) },
  "premium.tsx": { group: "account", visits: () => at("/premium") },
  "pricing.tsx": { group: "visitor", visits: () => at("/pricing") },
  "profile.tsx": { group: "account", visits: () => at("/profile") },
  "profile_.account.tsx": { group: "account", visits: () => at("/profile/account") },
  "profile_.blocked.tsx": { group: "account", visits: () => at("/profile/blocked") },
  "profile_.delete.tsx": { group: "account", visits: () => at("/profile/delete") },
  "profile_.export.tsx": { notAPage: "the data export's download (a zip) and its POST" },
  "profile_.photos.tsx": { group: "account", visits: () => at("/profile/photos") },
  "refused.tsx": { notAPage: "the request guard's refusal (a refused POST): the error page of the 404 entry (\"$.tsx\") with another status" },
  "reset-password._index.tsx": { group: "visitor", visits: () => at("/reset-password") },
  "reset-password.do.tsx": { group: "visitor", visits: () => at("/reset-password/do?token=this-token-was-never-issued") },
  "sandbox-checkout.$token.tsx": { group: "purchase", visits: (s) => at(`/sandbox-checkout/${s.checkout}`) },
  "signup-matches.tsx": { group: "social", visits: () => at("/signup-matches") },
  "signup.tsx": { group: "visitor", visits: () => at("/signup") },
  "signup_.1.tsx": { notAPage: "no page on the default site, which has no push key (404): push-step.spec.ts audits it with axe on a niche site" },
  "signup_.2.tsx": { group: "account", visits: () => at("/signup/2") },
  "signup_.3.tsx": { group: "account", visits: () => at("/signup/3") },
  "signup_.4.tsx": { group: "account", visits: () => at("/signup/4") },
  "site-entry.tsx": { notAPage: "a POST only (the entry warning's answer); the warning itself is audited open below" },
  "swipe-game.tsx": { group: "social", visits: () => at("/swipe-game") },
  "transactions.$id.tsx": { group: "purchase", visits: (s) => at(`/transactions/${s.transaction}`) },
  "transactions._index.tsx": { group: "purchase", visits: () => at("/transactions") },
  "unsubscribe.tsx": { group: "visitor", visits: () => at("/unsubscribe?token=1.not-a-token") },
  "manifest[.]webmanifest.ts": { notAPage: "the web app manifest (JSON)" },
  "staff.tsx": { notAPage: "the staff pages' frame (header, navigation): audited with each staff page below" },
  "staff._index.tsx": { group: "staff", visits: () => at("/staff") },
  "staff.accounts.tsx": { group: "staff", visits: () => at("/staff/accounts") },
  "staff.audit.tsx": { group: "staff", visits: () => at("/staff/audit") },
  "staff.discount-codes.tsx": { group: "staff", visits: () => at("/staff/discount-codes") },
  "staff.invitations.tsx": { group: "staff", visits: () => at("/staff/invitations") },
  "staff.sites._index.tsx": { group: "staff", visits: () => at("/staff/sites") },
  "staff.sites.new.tsx": { group: "staff", visits: () => at("/staff/sites/new") },
  "staff.sites.$id.tsx": { group: "staff", visits: () => at("/staff/sites/1") },
  "staff.packages.tsx": { group: "staff", visits: () => at("/staff/packages", "/staff/packages?site=1&edit=1") },
  "staff.profiles._index.tsx": { group: "staff", visits: () => at("/staff/profiles") },
  "staff.profiles.$id.tsx": { group: "staff", visits: (s) => at(`/staff/profiles/${s.siteRunProfile}`) },
  "staff.events.ts": { notAPage: "the staff frame's live queue sizes (server-sent events)" },
  "staff.inbox._index.tsx": { group: "staff", visits: () => at("/staff/inbox", "/staff/inbox?queue=waiting") },
  "staff.analytics.tsx": { group: "staff", visits: () => at("/staff/analytics", "/staff/analytics?period=7&site=1") },
  "staff.analytics[.]csv.ts": { notAPage: "one table of the analytics as a CSV download" },
  "staff.operators.tsx": { group: "staff", visits: () => at("/staff/operators") },
  "staff.operators[.]csv.ts": { notAPage: "the operator figures as a CSV download" },
  "staff.inbox.$id.tsx": { group: "staff", visits: (s) => at(`/staff/inbox/${s.inboxConversation}`) },
  "staff.inbox.media.$message.ts": { notAPage: "an image message's file for the operator's thread" },
  "staff.saved-replies.tsx": { group: "staff", visits: () => at("/staff/saved-replies", "/staff/saved-replies?site=1") },
  "staff.members._index.tsx": { group: "staff", visits: (s) => at("/staff/members", `/staff/members?q=${encodeURIComponent(s.email)}`) },
  "staff.members.$id.tsx": { group: "staff", visits: (s) => at(`/staff/members/${s.staffMember}`) },
  "staff.password.tsx": { group: "staff", visits: () => at("/staff/password") },
  "staff.held-messages.tsx": { group: "staff", visits: () => at("/staff/held-messages") },
  "staff.photos.tsx": { group: "staff", visits: () => at("/staff/photos") },
  "staff.reports._index.tsx": { group: "staff", visits: () => at("/staff/reports") },
  "staff.reports.$id.tsx": { group: "staff", visits: (s) => at(`/staff/reports/${s.report}`) },
  "staff_.setup.$token.tsx": { group: "visitor", visits: () => at("/staff/setup/no-such-link") },
  "staff_.login.tsx": { group: "visitor", visits: () => at("/staff/login") },
  "staff_.logout.tsx": { notAPage: "a POST only (staff log out)" },
};

/** One line per violation: rule, impact, help, and each element's target. */
type Finding = string;

async function audit(page: Page, where: string): Promise<Finding[]> {
  return (await axeViolations(page, where)).flatMap((violation) =>
    violation.nodes.map((node) => `${where}: ${violation.id} (${violation.impact}) at ${node.target.join(" ")}: ${violation.help} ${violation.helpUrl}\n    ${node.failureSummary?.replace(/\n/g, "\n    ") ?? ""}`),
  );
}

/**
 * Opens each visit of the group's pages and audits it once loaded and hydrated. The pages are audited still (reduced
 * motion, which the landers honour): an element caught halfway through a fade has no contrast one can rely on.
 */
async function auditGroup(page: Page, group: Group, samples: Samples): Promise<Finding[]> {
  await page.emulateMedia({ reducedMotion: "reduce" });
  const findings: Finding[] = [];
  for (const entry of Object.values(pages)) {
    if ("notAPage" in entry || entry.group !== group) continue;
    for (const visit of entry.visits(samples)) findings.push(...(await auditVisit(page, visit)));
  }
  return findings;
}

async function auditVisit(page: Page, visit: Visit): Promise<Finding[]> {
  const response = await page.goto(visit.path);
  expect(response, visit.path).not.toBeNull();
  expect(new URL(page.url()).pathname, `${visit.path} is audited where it is, not after a redirect`).toBe(new URL(visit.path, "http://localhost").pathname);
  if (visit.react !== false) await hydrated(page.locator("html"));
  const findings = await audit(page, visit.path);
  // Nothing moves under the reader as the page loads and hydrates (CLS under 0.01 on every page). The
  // layout shifts Chromium recorded since navigation (buffered), without those right after an input.
  const shift = await page.evaluate(() => {
    // A buffered observer holds the entries recorded so far at once: takeRecords() reads them without waiting for
    // its callback (which never comes when there is none).
    const observer = new PerformanceObserver(() => undefined);
    observer.observe({ type: "layout-shift", buffered: true });
    const entries = observer.takeRecords() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[];
    observer.disconnect();
    return entries.filter((entry) => !entry.hadRecentInput).reduce((sum, entry) => sum + entry.value, 0);
  });
  if (shift >= 0.01) findings.push(`${visit.path}: cumulative layout shift ${shift.toFixed(4)} (limit 0.01)`);
  // SEO: every page but an error page has a meta description.
  const descriptions = await page.locator('head meta[name="description"]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute("content") ?? ""));
  expect(descriptions, `${visit.path}: a meta description or, on an error page, none`).toEqual(visit.described === false ? [] : [expect.stringMatching(/\S{2}/)]);
  return findings;
}

function report(findings: Finding[]): void {
  expect(findings, `axe (${wcagTags.join(", ")}) violations:\n${findings.join("\n")}`).toEqual([]);
}

/** A demo member (a teaser the api shows visitors) for the member paths. */
async function demoMember(page: Page): Promise<number> {
  const teasers = TeasersResponse.parse(await (await page.request.get("/api/teasers.php?count=1")).json());
  return teasers.members[0]!.id;
}

/** The first package's id, from the link of its "choose" button on /credits. */
async function firstPackage(page: Page): Promise<number> {
  await page.goto("/credits");
  const href = await page.getByTestId("package-choose").first().getAttribute("href");
  const id = Number(/\/credits\/(\d+)/.exec(href ?? "")?.[1]);
  expect(id, `a package id in ${href}`).toBeGreaterThan(0);
  return id;
}

const unused = { member: 0, packageId: 0, conversation: 0, payment: 0, checkout: "", transaction: 0, report: 0, staffMember: 0, email: "", inboxConversation: 0, siteRunProfile: 0 } satisfies Samples;

test.describe("accessibility (axe, WCAG 2.1 AA)", () => {
  // Up to 17 pages a test, each loaded, hydrated and audited: a few seconds each, more on a loaded machine.
  test.describe.configure({ timeout: 240_000 });
  test.use({ reducedMotion: "reduce" });

  test("every page a visitor can open", async ({ page }) => {
    report(await auditGroup(page, "visitor", unused));
  });

  test("the staff pages, as an admin", async ({ page, browser, baseURL }) => {
    // A member with a photo in the queue and a complaint about them, so the queues and the report are audited full.
    const member = await activeMember(browser, baseURL ?? "");
    const photo = await member.page.request.post("/api/photos.php", {
      headers: sameOrigin,
      multipart: { photo: { name: "me.jpg", mimeType: "image/jpeg", buffer: await sharp({ create: { width: 200, height: 200, channels: 3, background: "#3366aa" } }).jpeg().toBuffer() } },
    });
    expect(photo.status()).toBe(201);
    const { photo: own } = (await photo.json()) as { photo: { filename: string; thumb_filename: string } };
    await loadOnlyOwnPhotos(page, [own.filename, own.thumb_filename]);
    const complaint = await member.page.request.post("/api/complaints.php", {
      headers: sameOrigin,
      data: { name: "Axe Tester", email: member.email, content_url: `${baseURL}/members/${member.profileId}`, reason: "impersonation", message: "An accessibility audit's sample complaint." },
    });
    expect(complaint.status()).toBe(201);
    // And a message to a site-run profile, for the operator inbox.
    const fictional = await siteRunProfile(member.page);
    const message = await member.page.request.post("/api/message.php", { headers: sameOrigin, data: { to: fictional.id, body: "Hello there", key: randomUUID() } });
    expect(message.status()).toBe(201);
    await member.page.context().close();
    await staffLogin(page, "admin");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
    await page.goto(`/staff/members?q=${encodeURIComponent(member.email)}`);
    const staffMember = Number(/\/staff\/members\/(\d+)/.exec((await page.getByTestId("staff-member-row").first().getByRole("link").getAttribute("href")) ?? "")?.[1]);
    await page.goto("/staff/reports");
    const reportId = Number(/\/staff\/reports\/(\d+)/.exec((await page.getByTestId("staff-report-row").last().getByRole("link").getAttribute("href")) ?? "")?.[1]);
    await page.goto("/staff/inbox");
    const inboxConversation = Number(/\/staff\/inbox\/(\d+)/.exec((await page.getByTestId("inbox-row").filter({ hasText: member.name }).getByRole("link").getAttribute("href")) ?? "")?.[1]);
    expect(staffMember * reportId * inboxConversation, "a member, a report and a conversation to audit").toBeGreaterThan(0);
    report(await auditGroup(page, "staff", { ...unused, report: reportId, staffMember, email: member.email, inboxConversation, siteRunProfile: fictional.id }));
  });

  test("every lander and member landing", async ({ page }) => {
    const samples = { ...unused, member: await demoMember(page) };
    report(await auditGroup(page, "lander", samples));
  });

  test("a visitor's dialogs: the site-entry warning and the signup modal", async ({ browser, baseURL }) => {
    const findings: Finding[] = [];
    // A new visitor: no skipped-warning cookie.
    const context = await browser.newContext({ baseURL, reducedMotion: "reduce" });
    const page = await context.newPage();
    await page.goto("/pages/faq");
    await expect(page.getByTestId("entry-warning")).toBeVisible();
    await hydrated(page.locator("html"));
    findings.push(...(await audit(page, "/pages/faq with the entry warning")));
    await page.getByTestId("entry-warning").getByRole("button").click();
    await expect(page.getByTestId("entry-warning")).toHaveCount(0);
    // With JavaScript the warning hides at once and its cookie comes with the fetcher's answer: wait for it.
    await expect.poll(async () => (await context.cookies()).some((cookie) => cookie.name === "site_entry_skipped"), { message: "the skipped warning is stored" }).toBe(true);

    await page.goto("/");
    await hydrated(page.getByRole("banner").getByRole("link", { name: "Sign up free" }));
    await page.getByRole("banner").getByRole("link", { name: "Sign up free" }).click();
    await expect(page.getByTestId("signup-modal")).toBeVisible();
    findings.push(...(await audit(page, "/ with the signup modal")));
    await context.close();
    report(findings);
  });

  test("a member's pages of search, likes and chat, with the like modal and the open menus", async ({ browser, baseURL }) => {
    const member: ActiveMember = await activeMember(browser, baseURL ?? "");
    const page = member.page;
    const to = await demoMember(page);
    const sent = await page.request.post("/api/message.php", { headers: sameOrigin, data: { to, body: "Hello there", key: randomUUID() } });
    expect(sent.status(), await sent.text()).toBe(201);
    const conversation = ((await sent.json()) as { message: { conversation_id: number } }).message.conversation_id;
    const findings = await auditGroup(page, "social", { ...unused, member: to, conversation });

    // The like modal (a member's first visit with t=0) and the header's menus, open.
    await page.goto("/members?t=0");
    await expect(page.getByTestId("like-modal").getByRole("heading")).toBeVisible();
    findings.push(...(await audit(page, "/members with the like modal")));
    await page.goto("/pricing");
    await hydrated(page.getByTestId("account-menu"));
    await page.getByTestId("account-menu").locator("summary").click();
    await page.getByTestId("language-menu").locator("summary").click();
    findings.push(...(await audit(page, "/pricing with the account and language menus open")));
    report(findings);
  });

  test("a member's pages of profile, settings and credits", async ({ browser, baseURL }) => {
    const member: ActiveMember = await activeMember(browser, baseURL ?? "");
    const samples = { ...unused, packageId: await firstPackage(member.page) };
    report(await auditGroup(member.page, "account", samples));
  });

  test("a member's purchase: the sandbox checkout, the payment's result, the transactions and the repeat order", async ({ browser, baseURL }) => {
    const member: ActiveMember = await activeMember(browser, baseURL ?? "");
    const page = member.page;
    await page.emulateMedia({ reducedMotion: "reduce" });
    const packageId = await firstPackage(page);
    await page.goto(`/credits/${packageId}`);
    await hydrated(page.getByTestId("method-cards"));
    await page.getByTestId("method-cards").click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox-checkout\/[\w-]{32}$/);
    const checkout = new URL(page.url()).pathname.split("/")[2]!;
    const findings = await auditVisit(page, { path: `/sandbox-checkout/${checkout}` });
    await page.getByTestId("outcome-paid").check();
    await page.getByTestId("sandbox-card").selectOption("ok");
    await page.getByTestId("sandbox-submit").click();
    await expect(page.getByTestId("payment-result")).toHaveAttribute("data-status", "paid", { timeout: 15_000 });
    const payment = Number(/\/payment\/(\d+)/.exec(page.url())?.[1]);
    await page.goto("/transactions");
    const receipt = await page.getByTestId("transaction-link").first().getAttribute("href");
    const transaction = Number(/\/transactions\/(\d+)/.exec(receipt ?? "")?.[1]);
    const samples = { ...unused, packageId, checkout, payment, transaction };
    for (const entry of Object.values(pages)) {
      if ("notAPage" in entry || entry.group !== "purchase") continue;
      for (const visit of entry.visits(samples)) if (!visit.path.startsWith("/sandbox-checkout/")) findings.push(...(await auditVisit(page, visit)));
    }
    report(findings);
  });

  test("every route file has an entry in this spec's page list", () => {
    const routeFiles = readdirSync(`${projectRoot}app/routes`).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file)).sort();
    expect(routeFiles, "each route file is audited here or says why it is no page").toEqual(Object.keys(pages).sort());
  });
});
