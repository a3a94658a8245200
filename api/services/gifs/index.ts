import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { gifLocales, type Locale } from "#contract/locales";
import { gifIdPattern, gifResultsLimit } from "#contract/gifts";
import { catalogueMotifs, catalogueSide, catalogueVariants } from "./catalogue";
import { projectPath } from "../../project-files";

/*
 * GIF search: a provider answers a search with GIFs and hands out a GIF's file by id. The browser
 * only ever sees this site's addresses (GET /api/gif.php?id=), so the CSP stays strict and no member's address
 * reaches a third party: the offline catalogue is read from disk; a provider's media is fetched once by the api
 * and kept under DATA_DIR/gif-cache.
 *
 * Chosen by GIF_PROVIDER: "catalogue" (the default; works offline) or "tenor" (needs TENOR_API_KEY;
 * TENOR_CLIENT_KEY names this app, TENOR_BASE_URL is for tests).
 */

export type Gif = { id: string; width: number; height: number; label: string };
export type GifFile = { body: Buffer; contentType: string };

export interface GifProvider {
  /** GIFs for the words, in English and the locale's language (the provider's locale is the gifLocale). */
  search(query: string, locale: Locale): Promise<Gif[]>;
  /** The GIF by id when the provider knows it (a catalogue GIF, or one a search of this provider answered). */
  find(id: string): Promise<Gif | null>;
  /** Its file, or null when unknown or the provider cannot deliver it now. */
  file(id: string, size: "full" | "thumb"): Promise<GifFile | null>;
}

const normalise = (s: string) => s.toLocaleLowerCase().normalize("NFC").trim();

/** The offline catalogue: public/gifs/c-{motif}-{n}.gif, found by the motif's tags in English and the locale's language. */
export function catalogueProvider(directory: string): GifProvider {
  const all: Gif[] = Object.keys(catalogueMotifs).flatMap((motif) =>
    Array.from({ length: catalogueVariants }, (_, i) => ({ id: `c-${motif}-${i + 1}`, width: catalogueSide, height: catalogueSide, label: catalogueMotifs[motif]?.en[0] ?? motif })),
  );
  const byId = new Map(all.map((g) => [g.id, g]));
  const motifOf = (id: string) => id.split("-")[1] ?? "";
  return {
    async search(query, locale) {
      const words = normalise(query).split(/\s+/).filter(Boolean);
      const language = (gifLocales[locale] ?? "en_US").split("_")[0] as Locale;
      const matches = (motif: string) => {
        const tags = catalogueMotifs[motif];
        if (!tags) return false;
        const list = [...tags.en, ...(tags[language as keyof typeof tags] ?? [])].map(normalise);
        // The whole query as a phrase ("guten morgen"), or every word starting one of the tags.
        const phrase = words.join(" ");
        return list.some((tag) => tag.startsWith(phrase)) || words.every((w) => list.some((tag) => tag.split(/\s+/).some((part) => part.startsWith(w))));
      };
      return all.filter((g) => matches(motifOf(g.id))).slice(0, gifResultsLimit);
    },
    async find(id) {
      return byId.get(id) ?? null;
    },
    async file(id) {
      if (!byId.has(id)) return null;
      try {
        return { body: await readFile(path.join(directory, `${id}.gif`)), contentType: "image/gif" };
      } catch {
        return null;
      }
    },
  };
}

/** Tenor v2's media object and response object, as far as this reads them (developers.google.com/tenor/guides/response-objects-and-errors). */
const TenorMedia = z.object({ url: z.string().url(), dims: z.array(z.number()).optional(), size: z.number().optional() });
const TenorResult = z.object({
  id: z.string(),
  title: z.string().optional(),
  content_description: z.string().optional(),
  media_formats: z.record(z.string(), TenorMedia),
});
const TenorSearch = z.object({ results: z.array(z.unknown()), next: z.string().optional() });

type Known = Gif & { full: string; thumb: string };

/**
 * Tenor v2 (GET {base}/v2/search?q&key&client_key&locale&limit&media_filter). What a search answered is kept
 * (memory, and DATA_DIR/gif-cache/tenor/{id}.json) so a chosen GIF can be sent and shown later; its files are
 * fetched from Tenor once and kept beside it. Only https media on Tenor's hosts are fetched (the base's host in tests).
 */
export function tenorProvider(options: { key: string; clientKey: string; baseUrl: string; cacheDir: string; fetch?: typeof fetch }): GifProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  const cacheDir = path.resolve(options.cacheDir, "tenor");
  const known = new Map<string, Known>();
  const baseHost = new URL(base).host;
  const mediaAllowed = (url: string) => {
    try {
      const u = new URL(url);
      return u.host === baseHost || (u.protocol === "https:" && /(^|\.)tenor\.com$|(^|\.)googleapis\.com$/.test(u.hostname));
    } catch {
      return false;
    }
  };
  const writeAtomic = async (file: string, body: Buffer | string) => {
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, body);
    await rename(temporary, file);
  };
  const remember = async (gif: Known) => {
    if (known.has(gif.id)) return;
    known.set(gif.id, gif);
    await writeAtomic(path.join(cacheDir, `${gif.id}.json`), JSON.stringify(gif)).catch(() => undefined);
  };
  const lookup = async (id: string): Promise<Known | null> => {
    if (!gifIdPattern.test(id) || !id.startsWith("t-")) return null;
    const inMemory = known.get(id);
    if (inMemory) return inMemory;
    try {
      const saved = JSON.parse(await readFile(path.join(cacheDir, `${id}.json`), "utf8")) as Known;
      known.set(id, saved);
      return saved;
    } catch {
      return null;
    }
  };
  return {
    async search(query, locale) {
      const url = new URL(`${base}/v2/search`);
      url.search = new URLSearchParams({
        q: query,
        key: options.key,
        client_key: options.clientKey,
        locale: gifLocales[locale] ?? "en_US",
        limit: String(gifResultsLimit),
        media_filter: "gif,tinygif",
        contentfilter: "medium",
      }).toString();
      const res = await doFetch(url, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`tenor search answered ${res.status}`);
      const parsed = TenorSearch.safeParse(await res.json());
      if (!parsed.success) throw new Error("tenor search answered an unexpected shape");
      const gifs: Gif[] = [];
      for (const raw of parsed.data.results) {
        const item = TenorResult.safeParse(raw);
        if (!item.success || !/^[0-9A-Za-z]{1,40}$/.test(item.data.id)) continue;
        const full = item.data.media_formats.gif;
        const thumb = item.data.media_formats.tinygif ?? full;
        if (!full || !thumb || !mediaAllowed(full.url) || !mediaAllowed(thumb.url)) continue;
        const [width = 0, height = 0] = full.dims ?? [];
        const gif: Known = {
          id: `t-${item.data.id}`,
          width: Math.round(width) || 220,
          height: Math.round(height) || 220,
          label: (item.data.content_description || item.data.title || "GIF").slice(0, 200),
          full: full.url,
          thumb: thumb.url,
        };
        await remember(gif);
        gifs.push({ id: gif.id, width: gif.width, height: gif.height, label: gif.label });
      }
      return gifs;
    },
    async find(id) {
      const gif = await lookup(id);
      return gif ? { id: gif.id, width: gif.width, height: gif.height, label: gif.label } : null;
    },
    async file(id, size) {
      const gif = await lookup(id);
      if (!gif) return null;
      const file = path.join(cacheDir, `${id}.${size}.gif`);
      try {
        return { body: await readFile(file), contentType: "image/gif" };
      } catch {
        // Not fetched yet.
      }
      const res = await doFetch(size === "thumb" ? gif.thumb : gif.full, { signal: AbortSignal.timeout(10_000), redirect: "error" }).catch(() => null);
      if (!res || !res.ok) return null;
      const body = Buffer.from(await res.arrayBuffer());
      // A GIF's header, whatever the answer claims: nothing else is handed to browsers as a GIF.
      if (body.length > 8 * 1024 * 1024 || body.subarray(0, 4).toString("latin1") !== "GIF8") return null;
      await writeAtomic(file, body).catch(() => undefined);
      return { body, contentType: "image/gif" };
    },
  };
}

const catalogueDir = projectPath("public", "gifs");

/**
 * The provider the environment chooses (GIF_PROVIDER, TENOR_API_KEY); the catalogue when Tenor has no key.
 * Catalogue GIFs (c-...) sent before a switch to Tenor stay viewable.
 */
export function gifProviderFromEnv(env: NodeJS.ProcessEnv, dataDir: string): GifProvider {
  const catalogue = catalogueProvider(catalogueDir);
  if (env.GIF_PROVIDER !== "tenor" || !env.TENOR_API_KEY) return catalogue;
  const tenor = tenorProvider({
    key: env.TENOR_API_KEY,
    clientKey: env.TENOR_CLIENT_KEY ?? "rendezvous",
    baseUrl: env.TENOR_BASE_URL ?? "https://tenor.googleapis.com",
    cacheDir: path.resolve(dataDir, "gif-cache"),
  });
  const of = (id: string) => (id.startsWith("c-") ? catalogue : tenor);
  return { search: (q, l) => tenor.search(q, l), find: (id) => of(id).find(id), file: (id, size) => of(id).file(id, size) };
}
