import { describe, expect, it, vi } from "vitest";
import { locales } from "#contract/locales";
import { fixedT, instanceFor, resources } from "../../app/utils/i18n.server";

/** Every text key of a namespace of a locale (plural forms by their base key). */
function keysOf(locale: string, ns: string): string[] {
  const keys = new Set<string>();
  const walk = (node: unknown, prefix: string) => {
    for (const [name, value] of Object.entries(node as Record<string, unknown>)) {
      if (typeof value === "string") keys.add(`${prefix}${name.replace(/_(zero|one|two|few|many|other)$/, "")}`);
      else if (value && typeof value === "object") walk(value, `${prefix}${name}.`);
    }
  };
  walk(resources[locale]?.[ns] ?? {}, "");
  return [...keys];
}

/** A locale's server instance answers texts without values from memory after their first time (app/utils/i18n.server.ts). */
describe("the server's translations remembered per locale", () => {
  it("answer every text of every locale as i18next does, the first time and again", () => {
    for (const locale of locales) {
      const remembered = instanceFor(locale).getFixedT(null, ["common", "discovery"]);
      const plain = fixedT(locale, ["common", "discovery"]);
      for (const key of [...keysOf(locale, "common"), ...keysOf(locale, "discovery").map((k) => `discovery:${k}`)]) {
        const expected = plain(key);
        expect(remembered(key), `${locale} ${key}`).toBe(expected);
        expect(remembered(key), `${locale} ${key}, again`).toBe(expected);
      }
    }
  });

  it("keep counts, values and other languages to i18next", () => {
    const t = instanceFor("en").getFixedT(null, "common");
    expect(t("nav.creditsLeft", { count: 1 })).toBe("1 credit left");
    expect(t("nav.creditsLeft", { count: 7 })).toBe("7 credits left");
    expect(t("nav.creditsLeft", { count: 1 })).toBe("1 credit left");
    expect(instanceFor("en").t("common:nav.search", { lng: "de" })).toBe(fixedT("de")("nav.search"));
    expect(instanceFor("en").t("common:nav.search")).toBe(fixedT("en")("nav.search"));
  });

  it("ask i18next once for a text without values", () => {
    const instance = instanceFor("fr");
    const translator = (instance as unknown as { translator: { translate: (...args: unknown[]) => unknown } }).translator;
    const spy = vi.spyOn(translator, "translate");
    const t = instance.getFixedT(null, "common");
    const first = t("nav.messages");
    const calls = spy.mock.calls.length;
    expect(t("nav.messages")).toBe(first);
    expect(t("nav.messages")).toBe(first);
    expect(spy.mock.calls.length).toBe(calls);
    t("nav.creditsLeft", { count: 2 });
    t("nav.creditsLeft", { count: 2 });
    expect(spy.mock.calls.length).toBe(calls + 2);
    spy.mockRestore();
  });
});
