import { describe, expect, it } from "vitest";
import { locales, visibleLocales } from "#contract/locales";
import { countBadgeText, creditsBadgeTone } from "~/components/layout/badges";
import { termsVersionDate } from "~/utils/legal";
import { localizePath, safeRedirectPath, splitLocale } from "~/utils/paths";
import { preferredLocale } from "~/utils/locale.server";
import { alertCandidates } from "~/features/members/member-alerts.server";
import { browserPushState, pushAlertShows } from "~/features/push/push-state";
import { hasBackButton } from "~/components/layout/back-button";
import { pageTitle } from "~/utils/page-title";

describe("visible locales per country (docs/product.md §9)", () => {
  it.each([
    ["US", ["en", "es"]],
    ["NL", ["nl"]],
    ["BE", ["nl", "fr", "de"]],
    ["CA", ["en", "fr"]],
    ["CH", ["de", "it", "fr", "en"]],
    ["FI", ["fi", "sv"]],
    ["NO", ["nb"]],
    ["at", ["de"]],
  ])("%s sees %j", (country, expected) => {
    expect(visibleLocales(country)).toEqual(expected);
  });

  it("shows all 11 when the country is unknown or not in the table", () => {
    expect(visibleLocales(null)).toEqual(locales);
    expect(visibleLocales("")).toEqual(locales);
    expect(visibleLocales("JP")).toEqual(locales);
    expect(locales).toHaveLength(11);
  });
});

describe("navigation badges (docs/product.md §2 and §9)", () => {
  it.each([
    [0, null],
    [-3, null],
    [1, "1"],
    [99, "99"],
    [100, "99+"],
    [5000, "99+"],
  ])("unread count %d shows %j", (count, text) => {
    expect(countBadgeText(count)).toBe(text);
  });

  it.each([
    [500, null],
    [11, null],
    [10, "warning"],
    [1, "warning"],
    [0, "danger"],
  ])("%d credits give tone %j", (credits, tone) => {
    expect(creditsBadgeTone(credits)).toBe(tone);
  });
});

describe("terms version date (docs/product.md §9)", () => {
  it("is 2023-12-01T12:00:00Z for a company added earlier", () => {
    expect(termsVersionDate("2020-05-05T00:00:00Z").toISOString()).toBe("2023-12-01T12:00:00.000Z");
  });
  it("is the company's added date when that is later", () => {
    expect(termsVersionDate("2025-03-04T10:00:00Z").toISOString()).toBe("2025-03-04T10:00:00.000Z");
  });
  it("falls back to the floor for an unreadable date", () => {
    expect(termsVersionDate("not a date").toISOString()).toBe("2023-12-01T12:00:00.000Z");
  });
});

describe("locale paths", () => {
  it("gives English no prefix and every other locale one", () => {
    expect(localizePath("en", "/members")).toBe("/members");
    expect(localizePath("nl", "/members")).toBe("/nl/members");
    expect(localizePath("nl", "/")).toBe("/nl");
  });
  it("splits a prefixed path, and leaves unknown or English prefixes alone", () => {
    expect(splitLocale("/nl/members/4")).toEqual({ locale: "nl", path: "/members/4" });
    expect(splitLocale("/de")).toEqual({ locale: "de", path: "/" });
    expect(splitLocale("/xx/members")).toEqual({ locale: null, path: "/xx/members" });
    expect(splitLocale("/en/members")).toEqual({ locale: null, path: "/en/members" });
  });
  it("follows only same-site relative paths", () => {
    expect(safeRedirectPath("/members?page=2", "/")).toBe("/members?page=2");
    expect(safeRedirectPath("//evil.example", "/")).toBe("/");
    expect(safeRedirectPath("https://evil.example", "/")).toBe("/");
    expect(safeRedirectPath("/\\evil.example", "/")).toBe("/");
    expect(safeRedirectPath(null, "/members")).toBe("/members");
  });
});

describe("preferred locale of an unprefixed URL (docs/product.md §7)", () => {
  const request = (cookie?: string) => new Request("http://localhost/", { headers: cookie ? { Cookie: cookie } : {} });
  it("keeps the choice of the i18n_redirected cookie", () => {
    expect(preferredLocale(request("i18n_redirected=de"), { domain_language: "nl-NL" })).toBe("de");
  });
  it("takes the first 2 letters of the site's domain_language when no cookie is set", () => {
    expect(preferredLocale(request(), { domain_language: "nl-NL" })).toBe("nl");
    expect(preferredLocale(request(), { domain_language: "FR" })).toBe("fr");
  });
  it("ignores an unsupported domain_language or cookie value", () => {
    expect(preferredLocale(request("i18n_redirected=xx"), { domain_language: "ja-JP" })).toBe("en");
    expect(preferredLocale(request(), { domain_language: null })).toBe("en");
  });
});

describe("member banners before dismissals (docs/product.md §2 warning banners, §4 dismissals)", () => {
  const image = { filename: "a.jpg", thumb_filename: "a-t.jpg", status: "active" as const };
  const member = (status: "active" | "not_confirmed", reasons: ("fbl" | "bounce" | "listunsubscribe")[], mainImage: typeof image | null) => ({
    status,
    notifications_disabled: reasons,
    profile: { main_image: mainImage },
  });

  it("asks an activated member without a photo to add one, and nobody else", () => {
    expect(alertCandidates(member("active", [], null))).toEqual([{ key: "hide-enrich-alert" }]);
    expect(alertCandidates(member("active", [], image))).toEqual([]);
    // Not yet activated: the activation reminder speaks instead.
    expect(alertCandidates(member("not_confirmed", [], null))).toEqual([]);
  });

  it("warns about disabled notifications with every reason, before the photo request", () => {
    expect(alertCandidates(member("active", ["fbl", "bounce"], null))).toEqual([
      { key: "hide-disabled-notifications-alert", reasons: ["fbl", "bounce"] },
      { key: "hide-enrich-alert" },
    ]);
    expect(alertCandidates(member("not_confirmed", ["listunsubscribe"], image))).toEqual([{ key: "hide-disabled-notifications-alert", reasons: ["listunsubscribe"] }]);
  });

  it("offers push to an activated member where the site has push keys and the page is in the members area, after the other banners", () => {
    const now = Date.now();
    expect(alertCandidates(member("active", [], image), null, now, "KEY")).toEqual([{ key: "hide-push-notification-alert", publicKey: "KEY" }]);
    expect(alertCandidates(member("active", ["fbl"], null), null, now, "KEY")).toEqual([
      { key: "hide-disabled-notifications-alert", reasons: ["fbl"] },
      { key: "hide-enrich-alert" },
      { key: "hide-push-notification-alert", publicKey: "KEY" },
    ]);
    // No push keys, or a page outside the members area.
    expect(alertCandidates(member("active", [], image), null, now, null)).toEqual([]);
    // Not yet activated: the activation reminder speaks instead.
    expect(alertCandidates(member("not_confirmed", [], image), null, now, "KEY")).toEqual([]);
  });
});

describe("push states and the push alert (docs/product.md §4 Push, hide-push-notification-alert)", () => {
  const browser = (capable: boolean, permission: NotificationPermission, subscribed: boolean) => ({ capable, permission, subscribed });

  it("starts unknown, then capable or not, then subscribed or denied", () => {
    expect(browserPushState(browser(false, "default", false))).toBe("not_capable");
    expect(browserPushState(browser(true, "default", false))).toBe("capable");
    expect(browserPushState(browser(true, "denied", false))).toBe("denied");
    expect(browserPushState(browser(true, "granted", true))).toBe("subscribed");
    // Allowed but not subscribed (the subscription was dropped, or the push step failed): can still subscribe.
    expect(browserPushState(browser(true, "granted", false))).toBe("capable");
    // A subscription left over after the permission was taken back does not count.
    expect(browserPushState(browser(true, "denied", true))).toBe("denied");
  });

  it("shows the alert where the browser can push but is not subscribed, or was denied; never before it is known", () => {
    expect(pushAlertShows("capable")).toBe(true);
    expect(pushAlertShows("denied")).toBe(true);
    for (const state of ["unknown", "not_capable", "subscribed", "subscribing", "failed"] as const) expect(pushAlertShows(state)).toBe(false);
  });
});

describe("standalone back button pages (docs/product.md §2 navigation)", () => {
  it.each(["/members/12", "/likes/received", "/likes/m/7", "/credits", "/credits/3", "/credits/3/ideal"])("%s has one", (path) => {
    expect(hasBackButton(path)).toBe(true);
  });
  it.each(["/members", "/likes", "/members/12/chat", "/chats", "/credits/3/ideal/x", "/profile", "/"])("%s has none", (path) => {
    expect(hasBackButton(path)).toBe(false);
  });
});

describe("page title count (docs/product.md §4)", () => {
  const root = (unreadMessages: number, newLikes: number) => [{ id: "root", data: { user: { unreadMessages, newLikes } } }, { id: "routes/x", data: {} }];
  it("prefixes unread messages plus new likes in brackets when above zero", () => {
    expect(pageTitle("Likes | Rendezvous", root(2, 1))).toBe("(3) Likes | Rendezvous");
    expect(pageTitle("Likes | Rendezvous", root(0, 1))).toBe("(1) Likes | Rendezvous");
  });
  it("shows 99+ from 100, as the badges do (each count arrives capped at 100)", () => {
    expect(pageTitle("Likes | Rendezvous", root(60, 39))).toBe("(99) Likes | Rendezvous");
    expect(pageTitle("Likes | Rendezvous", root(60, 40))).toBe("(99+) Likes | Rendezvous");
    expect(pageTitle("Likes | Rendezvous", root(100, 100))).toBe("(99+) Likes | Rendezvous");
  });
  it("leaves the title alone at zero, for visitors, and without a title", () => {
    expect(pageTitle("Likes | Rendezvous", root(0, 0))).toBe("Likes | Rendezvous");
    expect(pageTitle("Home", [{ id: "root", data: { user: null } }])).toBe("Home");
    expect(pageTitle(undefined, root(5, 5))).toBeUndefined();
  });
});
