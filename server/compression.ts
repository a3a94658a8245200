import { constants } from "node:zlib";
import type { CompressionOptions } from "compression";

/**
 * compression()'s options for web, and for the bench's `bare Remix`, which is served the same way
 * (bench/bare-remix/server.ts).
 *
 * Brotli keeps compression's quality 4 with a 256 KB window (lgwin 18) instead of zlib's default 4 MB (lgwin 22). A
 * page is compressed by a fresh encoder, and the encoder's set-up grows with its window: on this 2-core machine a
 * logged-in `/members` (32 kB of HTML, 7.4 kB in brotli either way) cost web 12.4-13.3 ms of CPU a page with the
 * default window, 7.5 ms with lgwin 18 (16: 7.5 ms, 20: 9.6 ms; gzip 6.7, none 4.7); docs/performance-history.md. A window
 * of 256 KB still covers every page and script the app serves, so nothing compresses worse.
 */
export const brotliWindowBits = 18;

export const compressionOptions: CompressionOptions = {
  brotli: { params: { [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits } },
};
