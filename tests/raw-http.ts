import { connect } from "node:net";

/**
 * HTTP/1.1 over a plain socket, for what fetch, undici and Playwright cannot send: a Host header of any
 * bytes, an absolute-form request line (`GET http://other/path HTTP/1.1`), a body that keeps coming
 * after the server has answered. The request is sent with `Connection: close`; the answer is read until
 * the server closes the connection.
 */
export type RawRequest = {
  port: number;
  /** e.g. `GET /login HTTP/1.1` or `GET http://other/login HTTP/1.1`. */
  requestLine: string;
  /** Sent as given, in this order (a Host among them, or none); `Connection: close` is added. */
  headers: [string, string][];
  /** A body written after the head, 64 KB at a time, until the server answers (or all is sent). */
  body?: Buffer;
  /** A chunked body of `totalBytes` in 64 KB chunks, written until the server answers (then the client stops). */
  chunked?: { totalBytes: number };
  /** Sends one piece of the body (a proxy passes the head on with it), waits for the status line, then sends on until the server stops reading. */
  bodyAfterAnswer?: boolean;
  /** Gives up after this long (default 20 s): status 0. */
  timeoutMs?: number;
};

export type RawResponse = {
  /** 0: no answer (connection closed or timed out before a status line). */
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** Body bytes the client had handed to its socket when the status line arrived (or in all, without an answer). */
  bodyBytesSentBeforeAnswer: number;
  /** Body bytes the client handed to its socket in all. */
  bodyBytesSent: number;
  /** From the first byte sent to the status line. */
  msToAnswer: number;
  /** The socket error the client met, if any (EPIPE or ECONNRESET once the server stopped reading). */
  error?: string;
};

const slice = 64 * 1024;

export function rawRequest(request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port: request.port });
    const received: Buffer[] = [];
    const started = Date.now();
    let answered = false;
    let msToAnswer = 0;
    let bodyBytesSent = 0;
    let bodyBytesSentBeforeAnswer = -1;
    let error: string | undefined;
    let wake: (() => void) | null = null;
    const wakeUp = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const timer = setTimeout(() => socket.destroy(), request.timeoutMs ?? 20_000);

    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      if (!answered && Buffer.concat(received).includes("\r\n")) {
        answered = true;
        msToAnswer = Date.now() - started;
        bodyBytesSentBeforeAnswer = bodyBytesSent;
        wakeUp();
      }
    });
    socket.on("drain", wakeUp);
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
      wakeUp();
    });
    socket.on("close", () => {
      clearTimeout(timer);
      wakeUp();
      resolve(parse(Buffer.concat(received), { bodyBytesSentBeforeAnswer: bodyBytesSentBeforeAnswer < 0 ? bodyBytesSent : bodyBytesSentBeforeAnswer, bodyBytesSent, msToAnswer, error }));
    });

    const head = [request.requestLine, ...request.headers.map(([name, value]) => `${name}: ${value}`), "Connection: close", "", ""].join("\r\n");
    const stopped = () => (answered && !request.bodyAfterAnswer) || error !== undefined || socket.destroyed;
    /** Writes one piece; waits for drain (or an answer, an error, the close) when the socket's buffer is full. */
    const write = async (piece: Buffer | string, bodyBytes: number): Promise<void> => {
      const flushed = socket.write(piece);
      bodyBytesSent += bodyBytes;
      if (!flushed && !stopped()) await new Promise<void>((done) => (wake = done));
    };

    void (async () => {
      await write(Buffer.from(head, "latin1"), 0);
      if (request.body) {
        for (let offset = 0; offset < request.body.length && !stopped(); offset += slice) {
          const piece = request.body.subarray(offset, offset + slice);
          await write(piece, piece.length);
        }
      } else if (request.chunked) {
        const chunk = Buffer.alloc(slice, "x");
        while (bodyBytesSent < request.chunked.totalBytes && !stopped()) {
          await write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]), chunk.length);
          if (request.bodyAfterAnswer && !answered && !stopped()) await new Promise<void>((done) => (wake = done));
        }
        if (!stopped()) socket.write("0\r\n\r\n");
      }
    })();
  });
}

function parse(raw: Buffer, extra: Pick<RawResponse, "bodyBytesSentBeforeAnswer" | "bodyBytesSent" | "msToAnswer" | "error">): RawResponse {
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of (end < 0 ? text : text.slice(0, end)).split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status, headers, body: end < 0 ? "" : raw.subarray(Buffer.byteLength(text.slice(0, end + 4), "latin1")).toString("utf8"), ...extra };
}

/**
 * Host (and X-Forwarded-Host) values that are no host name: each must get 400 from web and the api
 * (contract/host.ts), never a 5xx. The first six are the hostile Host headers of docs/security.md, Where requests come in.
 */
export const hostileHosts: [string, string][] = [
  ["percent-encoded NUL", "a%00b"],
  ["a space", "a b"],
  ["bracketed non-address", "[zz]"],
  ["port only, out of range", ":99999"],
  ["user info", "a@b"],
  ["300 characters", "x".repeat(300)],
  ["port out of range", "localhost:99999"],
  ["empty port", "localhost:"],
  ["IPv4 out of range", "999.1.1.1"],
  ["bad punycode", "xn--a"],
  ["a slash", "localhost/x"],
  ["a backslash", "localhost\\x"],
  ["a list", "localhost, evil.example"],
  ["non-ASCII", "ex\u00e4mple.com"],
  ["a raw NUL", "a\u0000b"],
  ["empty", ""],
];

/** Request targets that are not a path: each gets 400 (absolute-form http(s) URLs are read as their path instead). */
export const hostileTargets: [string, string][] = [
  ["asterisk", "*"],
  ["authority-form", "localhost:443"],
  ["another scheme", "ftp://localhost/"],
  ["absolute-form with user info", "http://a@b/"],
  ["absolute-form with a bad port", "http://localhost:99999/"],
];
