import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import Negotiator from "negotiator";
import { brotliWindowBits } from "./compression";

/** compression()'s threshold: a smaller page goes as it is. */
const thresholdBytes = 1024;
/** As compression() negotiates: brotli, else gzip, whatever order the browser lists them in. */
const supported = ["br", "gzip", "identity"];
const preferred = ["br", "gzip"];

/**
 * A rendered page, compressed in one call (ADR 022), by the document entry that rendered it whole (app/entry.server.tsx,
 * ADR 025): brotli at compression()'s quality 4 with the 256 KB window of server/compression.ts and the page's size as
 * the hint, or gzip, as the request's Accept-Encoding allows. The headers get Content-Encoding, Content-Length and
 * `Vary: Accept-Encoding`; compression() then leaves the answer alone ("already encoded") and streams everything
 * else (scripts, `.data` answers, event streams) as before. One call over the whole page cost about 0.3 ms where a
 * brotli stream per page cost about 1 ms with 50 pages at once (docs/performance-history.md).
 */
export function compressPage(acceptEncoding: string | null, page: Buffer, headers: Headers): Buffer {
  headers.append("Vary", "Accept-Encoding");
  if (page.length < thresholdBytes || /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get("Cache-Control") ?? "")) return page;
  // negotiator 0.6.4 takes the server's preference as a second argument (as compression() passes it); its types do not say so.
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding ?? undefined } }) as unknown as { encoding: (available: string[], preferred: string[]) => string | undefined };
  const encoding = negotiator.encoding(supported, preferred);
  if (encoding !== "br" && encoding !== "gzip") return page;
  const encoded =
    encoding === "br"
      ? brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits, [constants.BROTLI_PARAM_SIZE_HINT]: page.length } })
      : gzipSync(page);
  headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(encoded.length));
  return encoded;
}
