import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { locales } from "#contract/locales";

const root = path.resolve(__dirname, "../../locales");
/** The staff pages are in English for now; their texts are a namespace of their own so more languages can follow. */
const englishOnly = new Set(["staff"]);
const namespaces = readdirSync(path.join(root, "en"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""))
  .filter((ns) => !englishOnly.has(ns));
/** Values allowed to stay as in English (names, and words that are the same in that language), per locale: "ns:key". */
const allowlist = JSON.parse(readFileSync(path.join(root, "untranslated-allowlist.json"), "utf8")) as Record<string, string[]>;

type Flat = Map<string, string>;

function flatten(value: unknown, prefix = "", out: Flat = new Map()): Flat {
  if (typeof value === "string") out.set(prefix, value);
  else if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${prefix}.${i}`, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

function load(lng: string, ns: string): Flat {
  return flatten(JSON.parse(readFileSync(path.join(root, lng, `${ns}.json`), "utf8")));
}

const pluralSuffix = /_(zero|one|two|few|many|other)$/;

/** English's keys as the locale must have them: each English plural group needs every plural category of the locale. */
function expectedKeys(english: Flat, lng: string): string[] {
  const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of english.keys()) {
    if (pluralSuffix.test(key)) for (const c of categories) keys.add(key.replace(pluralSuffix, `_${c}`));
    else keys.add(key);
  }
  return [...keys].sort();
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe.each(locales.filter((l) => l !== "en"))("locale %s", (lng) => {
  it.each(namespaces)("has exactly the keys of English in %s, with every plural form", (ns) => {
    const english = load("en", ns);
    const translated = load(lng, ns);
    expect([...translated.keys()].sort()).toEqual(expectedKeys(english, lng));
  });

  it.each(namespaces)("keeps the placeholders of every English text in %s", (ns) => {
    const english = load("en", ns);
    for (const [key, text] of load(lng, ns)) {
      const source = english.get(key) ?? english.get(key.replace(pluralSuffix, "_other")) ?? "";
      expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(source) });
    }
  });

  it.each(namespaces)("leaves nothing in English in %s except the allowlisted names", (ns) => {
    const english = load("en", ns);
    const allowed = new Set(allowlist[lng] ?? []);
    const untranslated = [...load(lng, ns)].filter(([key, text]) => english.get(key) === text && !allowed.has(`${ns}:${key}`)).map(([key]) => key);
    expect(untranslated).toEqual([]);
  });
});

describe("the allowlist", () => {
  it("names only keys that exist and are really identical to English", () => {
    for (const [lng, entries] of Object.entries(allowlist)) {
      for (const entry of entries) {
        const [ns = "", key = ""] = entry.split(":");
        expect({ entry, same: load(lng, ns).get(key) === load("en", ns).get(key) }).toEqual({ entry, same: true });
      }
    }
  });
});
