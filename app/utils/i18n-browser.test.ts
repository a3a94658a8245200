import { describe, expect, it } from "vitest";
import { locales } from "#contract/locales";
import { clientNamespaces } from "./i18n";
import { fixedT, resources } from "./i18n.server";
import { BrowserI18n, type Resources } from "./i18n-browser";

/** Every key path (plural suffixes stripped) of a namespace. */
function keys(bundle: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(bundle).flatMap(([key, value]) =>
    value !== null && typeof value === "object" ? keys(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, "")}`],
  );
}

const values = { site: "Rendezvous", name: "Anna", limit: 5, suggestion: "a@b.com", megabytes: 8, used: 2, tab: "likes", step: 2, steps: 4, premium: "Premium", percent: 50, page: 3, pages: 9, number: 7, minutes: 10, left: 1, free: 3, email: "x@y.z", country: "NL", age: 30 };

describe("the browser's translator", () => {
  for (const locale of locales) {
    it(`gives i18next's text for every client key in ${locale}`, () => {
      const bundles = Object.fromEntries(clientNamespaces.map((ns) => [ns, resources[locale]?.[ns] ?? {}])) as Resources;
      const browser = new BrowserI18n(locale, bundles);
      let checked = 0;
      for (const ns of clientNamespaces) {
        const server = fixedT(locale, ns);
        const t = browser.getFixedT(null, ns);
        for (const key of new Set(keys(bundles[ns] ?? {}))) {
          expect(t(key), `${locale} ${ns}:${key}`).toBe(server(key));
          expect(t(key, values), `${locale} ${ns}:${key} with values`).toBe(server(key, values));
          for (const count of [0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1.5]) {
            expect(t(key, { ...values, count }), `${locale} ${ns}:${key} count ${count}`).toBe(server(key, { ...values, count }));
          }
          expect(browser.getFixedT(null, "common")(`${ns}:${key}`, values)).toBe(fixedT(locale)(`${ns}:${key}`, values));
          expect(browser.getFixedT(null, "member")(key, { ...values, ns })).toBe(fixedT(locale, "member")(key, { ...values, ns }));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(100);
    });
  }

  it("answers a missing key and a missing value as i18next does", () => {
    const browser = new BrowserI18n("en", { common: { a: "x {{name}} y", b: { c: "deep" } } });
    expect(browser.t("nothing.here")).toBe("nothing.here");
    expect(browser.t("a")).toBe("x {{name}} y");
    expect(browser.t("common:b.c")).toBe("deep");
    expect(browser.t("account:missing")).toBe(fixedT("en")("account:missing"));
    expect(browser.t("b")).toBe(fixedT("en")("b"));
  });
});
