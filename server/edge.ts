import type { ErrorRequestHandler, NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { normalizeRequestEdge } from "#contract/host";

/**
 * What web answers itself, before or instead of a page or the api: a bad host, a body over a cap, an
 * error no route caught. Each is data, never a document (docs/security.md, "Headers").
 */
export const dataAnswerHeaders = { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; sandbox" };

/** Whether a request is for the api proxy (answered in the api's JSON error shape) rather than a page. */
export function isApiPath(originalUrl: string): boolean {
  return /^\/(?:api|uploads)(?:[/?]|$)/i.test(originalUrl);
}

function errorBody(status: number) {
  if (status === 413) return { error: "request_too_large", message: "This request is too large." };
  if (status >= 500) return { error: "internal_error", message: "An error has occurred." };
  return { error: "validation_failed", message: "This request could not be read." };
}

/** How long a connection whose body is left unread stays open after the answer, so a client still sending can read it. */
const lingerMs = 1000;

/**
 * Closes the connection after the answer without reading the rest of the body, and without resetting it
 * under a client that is still sending: Node would destroy the socket at once, the kernel would answer
 * the client's next bytes with a reset, and a client busy writing loses the answer with it (so it saw no
 * 413, just a broken connection). Instead the body stops at Node's read buffer (16 KB, then back
 * pressure), the answer goes out with a FIN, and the socket is dropped a second later, as Go's net/http
 * and nginx's lingering close do.
 */
export function closeAfterAnswer(req: Request, res: Response): void {
  res.set("Connection", "close");
  leaveBodyUnread(req);
  const socket = req.socket;
  socket.destroySoon = () => lingeringClose(socket);
}

/** Counts as reading, so Node does not drain the body after the answer; unread, it stops the socket once the buffer is full. */
function leaveBodyUnread(req: Request): void {
  req.read(0);
}

/** Sends a FIN after what is written, and drops the socket a moment later. */
function lingeringClose(socket: Request["socket"]): void {
  socket.end();
  setTimeout(() => socket.destroy(), lingerMs).unref();
}

/**
 * For an answer already under way (the api's, proxied) when the body it left unread must not be read on:
 * the answer is finished, not cut off, and the connection then closes as closeAfterAnswer's does.
 */
export function closeOnceAnswered(req: Request, res: Response): void {
  leaveBodyUnread(req);
  if (res.writableFinished) lingeringClose(req.socket);
  else res.once("finish", () => lingeringClose(req.socket));
}

/** A refused body of at most this many bytes is read (and dropped) before the answer, as Go's net/http reads up to 256 KB a handler left unread. */
const drainedBodyBytes = 256 * 1024;
/** How long a refusal waits for such a body before it answers anyway. */
const drainWaitMs = 2000;

/**
 * Runs `answer` once a refused request's declared body of at most drainedBodyBytes has arrived, read and dropped;
 * at once for a larger body, one without a length, or one already read. A client that writes its whole body before
 * it reads (Playwright's, node's own) would otherwise meet the answer and its FIN while still writing: node's client
 * then fails the rest of its write with EPIPE and never reads the answer (the web fuzz test's flake of 2026-12-04,
 * a form just over 64 KB). A larger body is refused from its headers, as before, and its connection closed; so is a
 * request whose body a parser already ended or gave up on.
 */
export function answerAfterSmallBody(req: Request, answer: () => void): void {
  const length = Number(req.get("content-length"));
  if (!(length > 0 && length <= drainedBodyBytes) || req.complete || req.readableEnded || req.destroyed) return answer();
  let answered = false;
  const once = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    answer();
  };
  const timer = setTimeout(once, drainWaitMs);
  req.once("end", once);
  req.once("error", once);
  req.once("close", once);
  req.resume();
}

/** web's own answer: the security headers of data, the api's JSON error shape on /api, plain text on a page; `close` when a body may be left unread. */
export function edgeAnswer(req: Request, res: Response, status: number, options: { close?: boolean } = {}): void {
  const send = () => {
    if (res.headersSent) return;
    res.set(dataAnswerHeaders);
    if (options.close) closeAfterAnswer(req, res);
    const body = errorBody(status);
    if (isApiPath(req.originalUrl)) res.status(status).json(body);
    else res.status(status).type("text/plain").send(body.message);
  };
  if (options.close) answerAfterSmallBody(req, send);
  else send();
}

/**
 * First thing for every request (after its log line starts): a target web can read and a host name in
 * Host (and in X-Forwarded-Host/-Proto from a trusted proxy), as contract/host.ts defines them. Anything
 * else is 400 here, before Remix or the proxy builds a URL or picks a site from it.
 */
export function hostGuard(req: Request, res: Response, next: NextFunction): void {
  const trusts = req.app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const refusal = normalizeRequestEdge(req, trusts(req.socket.remoteAddress ?? "", 0));
  if (!refusal) return next();
  req.log.warn({ refusal, status: 400 }, "request refused");
  edgeAnswer(req, res, 400, { close: true });
}

/** The status an error asks for when it is a client's (4xx: a body parser's, a static file's bad path), else 500. */
function clientStatusOf(error: unknown): number | null {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? status : null;
}

/**
 * The last handler: an error that reached Express (Remix's request handler passes its own on) is logged
 * through pino, never printed to stderr by Express's default handler, and answered without a stack.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const log = (req.log as Logger | undefined) ?? logger;
    const clientStatus = clientStatusOf(error);
    if (clientStatus) log.warn({ err: error, status: clientStatus }, "request refused");
    else log.error({ err: error }, "request failed");
    if (res.headersSent) {
      // Half an answer is worse than none: the client sees the connection end.
      req.socket.destroy();
      return;
    }
    edgeAnswer(req, res, clientStatus ?? 500, { close: true });
  };
}
