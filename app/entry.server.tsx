import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { instanceFor } from "./utils/i18n.server";
import { urlLocale } from "./utils/locale.server";
import { NonceProvider } from "./utils/nonce";
import { shownComponentsReady } from "./utils/when-shown";
import { compressPage } from "../server/page-compression";

export const streamTimeout = 5000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Loaded once at start (the browser loads them when shown): after that this costs nothing.
  await shownComponentsReady();
  const i18n = instanceFor(loadContext.locale ?? urlLocale(request));
  const nonce = loadContext.cspNonce;
  // The whole document, once everything is rendered, in one buffer, compressed in one piece (server/page-compression.ts,
  // ADR 022); no loader defers data. So React writes into an array, not
  // through a stream per page (a PassThrough turned into a web ReadableStream, read chunk by chunk by Remix's adapter),
  // which cost web about 3% of its CPU a page (docs/performance-history.md).
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const document = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    document.once("finish", () => {
      clearTimeout(deadline);
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      const html = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const body = request.method === "HEAD" ? html : compressPage(request.headers.get("Accept-Encoding"), html, responseHeaders);
      // A Buffer is the Uint8Array a Response takes; TypeScript's DOM types only doubt its ArrayBuffer (never shared here).
      resolve(new Response(body as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode }));
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(document);
        },
        onShellError(error: unknown) {
          clearTimeout(deadline);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error in the shell rejects the render, and Remix logs it (handleError below); one in a part, only here.
          if (shellRendered) loadContext.logger.error({ err: error }, "render failed");
        },
      },
    );
    // A part still waiting then is given up: the browser renders it (React's client fallback for an aborted boundary).
    const deadline = setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  // The router's own 4xx (no action for a POST, no route): the client's mistake, logged at warn with its request line.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  context.logger.error({ err: error }, "unhandled error in loader or action");
}
