import { randomUUID } from "node:crypto";
import { CatalogueOutcome } from "#contract/staff-catalogue";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Settings } from "#contract/settings";
import { PackagesResponse as MemberPackages } from "#contract/payments";
import { PackagesResponse, SiteResponse, SitesResponse, type SiteSettingsInput } from "#contract/staff-sites";
import { auditLog } from "../../api/db/schema";
import { call, expectApiError, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/**
 * The catalogue (docs/staff.md): sites with every setting, minimum message costs and credit packages
 * made in the console. A change reaches the members' endpoints at once (on other instances too: tests/scale/scale-out.test.ts).
 */
let api: Harness;
let admin: string;
let adminId: number;

beforeAll(async () => {
  api = await startApi();
  const account = await newStaff(api, "admin", []);
  adminId = account.id;
  admin = await staffToken(api, account);
});
afterAll(async () => api?.close());

const audited = async (action: string) => (await api.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.staffUserId, adminId)))).length;
const settingsOf = async (on: Harness, domain: string) => Settings.parse(await (await call(on, "GET", `/api/settings.php?domain=${domain}`)).json());
const siteOf = async (id: number) => SiteResponse.parse(await (await staffCall(api, admin, "GET", `/api/staff/site.php?id=${id}`)).json());
const postSite = (body: Record<string, unknown>) => staffCall(api, admin, "POST", "/api/staff/sites.php", body);

function newSettings(domain: string, overrides: Partial<SiteSettingsInput> = {}): SiteSettingsInput {
  return {
    name: "Console Dates",
    domain,
    is_default: false,
    domain_language: null,
    cdn_prefix: "/uploads/",
    niche: 2,
    index_title: "Meet someone tonight",
    description: "A site made in the console.",
    countries: ["NL", "BE"],
    signups: "all",
    logged_out_search: true,
    logged_out_search_trafficsource: false,
    enable_site_entry_popup: true,
    message_credits: 12,
    signup_credits: 30,
    photo_credits: 6,
    gift_credits: 20,
    message_length: 800,
    support_email: "help@console.example",
    support_phone: null,
    visible_profile_fields: ["city", "age", "interests"],
    visible_profile_notes: [],
    search_fields: ["gender", "country", "min_age", "max_age"],
    member_resell: false,
    fictional_icon: "★",
    fictional_warning: "Some profiles are run by the site.",
    fictional_singular: "host",
    fictional_plural: "hosts",
    refund_days: 14,
    welcome_discount_hours: 72,
    min_age: 18,
    ask_signup_message: false,
    delete_discount: null,
    photo_moderation: "post",
    contact_filter: "off",
    mail_name: "Console Dates",
    time_zone: "Europe/Amsterdam",
    company_id: 1,
    cam_tiles: null,
    ...overrides,
  };
}

async function createSite(domain: string, overrides: Partial<SiteSettingsInput> = {}): Promise<number> {
  const res = await postSite({ action: "create", settings: newSettings(domain, overrides) });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

describe("sites and their settings", () => {
  it("an admin makes a site that answers its domain at once, with every setting as given; bad settings are refused field by field", async () => {
    const id = await createSite("Console.Example");
    const settings = await settingsOf(api, "console.example");
    expect(settings).toMatchObject({ name: "Console Dates", domain: "console.example", niche: 2, countries: ["NL", "BE"], message_credits: 12, message_length: 800, fictional_plural: "hosts", support_phone: expect.any(String) });
    expect(settings.push_public_key, "a new site gets its own push keys").toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect((await siteOf(id)).settings.support_phone).toBeNull();
    expect((await siteOf(id)).settings.time_zone, "the analytics' days are this site's").toBe("Europe/Amsterdam");
    expect(SitesResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/sites.php")).json()).sites.find((s) => s.id === id)).toMatchObject({ domain: "console.example", packages: 0 });

    const refused = async (settings: SiteSettingsInput, field: string) => expect((await expectApiError(await postSite({ action: "create", settings }), 400, "validation_failed")).fields?.[`settings.${field}`], field).toBeDefined();
    await refused(newSettings("zone.example", { time_zone: "Mars/Olympus" }), "time_zone");
    await refused(newSettings("console.example"), "domain");
    await refused(newSettings("localhost"), "domain");
    await refused(newSettings("not a domain/x"), "domain");
    await refused(newSettings("other.example", { countries: [] }), "countries");
    await refused(newSettings("other.example", { countries: ["XX"] }), "countries.0");
    await refused(newSettings("other.example", { company_id: 9999 }), "company_id");
    await refused(newSettings("other.example", { logged_out_search: false, logged_out_search_trafficsource: true }), "logged_out_search_trafficsource");
    await refused(newSettings("other.example", { min_age: 17 }), "min_age");
    expect(await audited("site.create")).toBe(1);
  });

  it("templates an admin sets stay on their host: placeholders only in a cam link's path and query, cdn_prefix an https URL or a path on the site", async () => {
    const tiles = { title: "Live now", text: "", cta: "Watch", first: 0, every: 5 };
    const refused = async (overrides: Partial<SiteSettingsInput>, field: string) =>
      expect((await expectApiError(await postSite({ action: "create", settings: newSettings("templates.example", overrides) }), 400, "validation_failed")).fields?.[`settings.${field}`], field).toBeDefined();
    for (const link of ["https://cams.example@{sub1}/", "https://{sub1}/", "https://cams.example.{ref}/x", "https://cams.example:{sub2}/", "https://{network}.cams.example/", "https://cams.example\\@evil.example/", "https://user@cams.example/"]) {
      await refused({ cam_tiles: { ...tiles, link } }, "cam_tiles.link");
    }
    for (const cdn of ["//evil.example/", "/\\evil.example/", "/%2F/evil.example/", "https://evil.example@/", "http://cdn.example/", "/uploads/../../x/"]) await refused({ cdn_prefix: cdn }, "cdn_prefix");
    const id = await createSite("templates.example", { cdn_prefix: "https://cdn.example/photos/", cam_tiles: { ...tiles, link: "https://cams.example/go/{sub1}?ref={ref}&n={network}" } });
    expect((await siteOf(id)).settings.cdn_prefix).toBe("https://cdn.example/photos/");
  });

  it("an edit takes effect at once; an edit made on an older copy is refused and changes nothing", async () => {
    const id = await createSite("edit.example");
    const read = await siteOf(id);
    await settingsOf(api, "edit.example"); // cached now
    const changed = newSettings("edit.example", { message_credits: 3, signups: "other", support_phone: "+31 20 555 0101", photo_moderation: "pre" });
    expect((await postSite({ action: "update", id, updated_at: read.updated_at, settings: changed })).status).toBe(200);
    expect(await settingsOf(api, "edit.example")).toMatchObject({ message_credits: 3, signups: "other", support_phone: "+31 20 555 0101" });
    const stale = await expectApiError(await postSite({ action: "update", id, updated_at: read.updated_at, settings: newSettings("edit.example", { message_credits: 99 }) }), 400, "validation_failed");
    expect(stale.fields?.updated_at?.[0]).toMatch(/changed this site/);
    expect((await settingsOf(api, "edit.example")).message_credits).toBe(3);
    const [entry] = await api.db.select().from(auditLog).where(and(eq(auditLog.action, "site.update"), eq(auditLog.targetId, String(id))));
    expect(entry?.changes).toMatchObject({ message_credits: { before: 12, after: 3 }, signups: { before: "all", after: "other" } });
    expect(Object.keys(entry?.changes ?? {})).not.toContain("name");
    await expectApiError(await postSite({ action: "update", id: 99999, updated_at: read.updated_at, settings: changed }), 404, "not_found");
  });

  it("one site stays the default: making another the default moves it, and the default cannot just be switched off", async () => {
    const id = await createSite("default.example", { is_default: true });
    const sites = SitesResponse.parse(await (await staffCall(api, admin, "GET", "/api/staff/sites.php")).json()).sites;
    expect(sites.filter((s) => s.is_default).map((s) => s.id)).toEqual([id]);
    expect((await settingsOf(api, "unknown-host.example")).domain).toBe("default.example");
    const read = await siteOf(id);
    await expectApiError(await postSite({ action: "update", id, updated_at: read.updated_at, settings: newSettings("default.example", { is_default: false }) }), 400, "validation_failed");
    const first = await siteOf(1);
    const restore = await postSite({ action: "update", id: 1, updated_at: first.updated_at, settings: { ...first.settings, is_default: true } });
    expect(restore.status, await restore.clone().text()).toBe(200);
    expect((await settingsOf(api, "unknown-host.example")).domain).toBe(first.settings.domain);
  });

  it("minimum message costs per country, transaction costs per method and the push keys change what members get", async () => {
    const id = await createSite("costs.example");
    expect((await postSite({ action: "message_cost", id, country: "NL", costs: 1.49, currency: "EUR" })).status).toBe(200);
    expect((await settingsOf(api, "costs.example")).minimum_message_costs).toEqual({ NL: { costs: 1.49, currency: "EUR" } });
    await expectApiError(await postSite({ action: "message_cost", id, country: "NL", costs: 1.499, currency: "EUR" }), 400, "validation_failed");
    await expectApiError(await postSite({ action: "message_cost", id, country: "NL", costs: 1, currency: "euro" }), 400, "validation_failed");
    expect((await postSite({ action: "message_cost_remove", id, country: "NL" })).status).toBe(200);
    expect((await settingsOf(api, "costs.example")).minimum_message_costs).toEqual({});
    await expectApiError(await postSite({ action: "message_cost_remove", id, country: "NL" }), 404, "not_found");

    expect((await postSite({ action: "transaction_cost", id, method: "ideal", fixed: 29, percent: 1.5 })).status).toBe(200);
    const methods = async () => MemberPackages.parse(await (await call(api, "GET", "/api/packages.php?country=NL", { host: "costs.example" })).json()).methods;
    expect((await methods()).find((m) => m.id === "ideal")?.transaction_costs).toEqual({ fixed: 29, percent: 1.5 });
    await expectApiError(await postSite({ action: "transaction_cost", id, method: "ideal", fixed: -1, percent: 0 }), 400, "validation_failed");
    expect((await postSite({ action: "transaction_cost_remove", id, method: "ideal" })).status).toBe(200);
    expect((await methods()).find((m) => m.id === "ideal")?.transaction_costs).toBeNull();

    const before = (await settingsOf(api, "costs.example")).push_public_key;
    expect((await postSite({ action: "push_keys", id, keys: "generate" })).status).toBe(200);
    const after = (await settingsOf(api, "costs.example")).push_public_key;
    expect(after).not.toBe(before);
    expect((await postSite({ action: "push_keys", id, keys: "remove" })).status).toBe(200);
    expect((await siteOf(id)).push_public_key).toBeNull();
    const [keys] = await api.db.select().from(auditLog).where(eq(auditLog.action, "site.push_keys"));
    expect(JSON.stringify(keys?.changes)).not.toContain(after ?? "no key");
  });
});

describe("credit packages", () => {
  it("a package made in the console is on sale at once; a change of it and its end too, with audit entries", async () => {
    const id = await createSite("packages.example");
    const forSale = async () => MemberPackages.parse(await (await call(api, "GET", "/api/packages.php?country=BE", { host: "packages.example" })).json()).packages;
    expect(await forSale()).toEqual([]);
    const create = await staffCall(api, admin, "POST", "/api/staff/packages.php", { action: "create", form_key: randomUUID(), site_id: id, country: "BE", credits: 150, amount: 2999, currency: "EUR", mark: "best_value", position: 1 });
    expect(create.status, await create.clone().text()).toBe(201);
    expect(await forSale()).toMatchObject([{ credits: 150, amount: 2999, currency: "EUR", mark: "best_value" }]);
    const list = PackagesResponse.parse(await (await staffCall(api, admin, "GET", `/api/staff/packages.php?site_id=${id}`)).json());
    expect(list.site?.id).toBe(id);
    const pkg = list.packages[0]!;
    expect((await staffCall(api, admin, "POST", "/api/staff/packages.php", { action: "update", id: pkg.id, country: "BE", credits: 200, amount: 2999, currency: "EUR", mark: null, position: 1 })).status).toBe(200);
    expect(await forSale()).toMatchObject([{ credits: 200, mark: null }]);
    expect((await staffCall(api, admin, "POST", "/api/staff/packages.php", { action: "disable", id: pkg.id })).status).toBe(200);
    expect(await forSale()).toEqual([]);
    await expectApiError(await staffCall(api, admin, "POST", "/api/staff/packages.php", { action: "create", form_key: randomUUID(), site_id: id, country: "BE", credits: 0, amount: 100, currency: "EUR", mark: null, position: 0 }), 400, "validation_failed");
    await expectApiError(await staffCall(api, admin, "POST", "/api/staff/packages.php", { action: "create", form_key: randomUUID(), site_id: 99999, country: "BE", credits: 10, amount: 100, currency: "EUR", mark: null, position: 0 }), 404, "not_found");
    expect([await audited("package.create"), await audited("package.update"), await audited("package.disable")]).toEqual([1, 1, 1]);
  });

  it("a package form makes one package however often it is sent, and a package like one on sale is refused", async () => {
    const id = await createSite("package-twins.example");
    const fields = { action: "create", site_id: id, country: "BE", credits: 100, amount: 1999, currency: "EUR", mark: null, position: 0 };
    const form = { ...fields, form_key: randomUUID() };
    const answers = await Promise.all([1, 2, 3].map(() => staffCall(api, admin, "POST", "/api/staff/packages.php", form)));
    const outcomes = await Promise.all(answers.map(async (res) => CatalogueOutcome.parse(await res.json())));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 201]);
    expect(outcomes.filter((outcome) => outcome.replay)).toHaveLength(2);
    const listed = async () => PackagesResponse.parse(await (await staffCall(api, admin, "GET", `/api/staff/packages.php?site_id=${id}`)).json()).packages;
    expect(await listed()).toHaveLength(1);
    // Another form with the same package: members would see two identical cards.
    const twin = await expectApiError(await staffCall(api, admin, "POST", "/api/staff/packages.php", { ...fields, form_key: randomUUID() }), 400, "validation_failed");
    expect(twin.fields?.credits?.[0]).toMatch(/on sale in this country already/);
    // Its key was given back: after the first is ended the same form makes the package.
    const retry = { ...fields, form_key: randomUUID() };
    await expectApiError(await staffCall(api, admin, "POST", "/api/staff/packages.php", retry), 400, "validation_failed");
    await staffCall(api, admin, "POST", "/api/staff/packages.php", { action: "disable", id: (await listed())[0]!.id });
    expect((await staffCall(api, admin, "POST", "/api/staff/packages.php", retry)).status).toBe(201);
    expect(await listed()).toHaveLength(2);
  });
});
