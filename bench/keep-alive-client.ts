import { connect, type Socket } from "node:net";

/**
 * One keep-alive HTTP/1.1 connection that sends one request at a time over a plain socket and reads the answer
 * (a Content-Length or a chunked body): the paid sends' client (bench/paid-sends.ts). node's http.request with an
 * Agent cost the bench 0.4-0.7 ms of CPU a send on the same 2 cores as the api and PostgreSQL, where pgbench's
 * own client, the yardstick's, costs a small part of that; this costs what autocannon does for the pages' rows.
 * A lost connection is opened again for the next request.
 */
export class KeepAliveConnection {
  private socket: Socket | null = null;
  private received: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (status: number) => void; reject: (error: Error) => void; timer: NodeJS.Timeout } | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs = 30_000,
  ) {}

  /** Sends `head` (request line and headers, without Content-Length and the blank line) and `body`; resolves with the status once the whole answer is in. */
  request(head: string, body: string): Promise<number> {
    if (this.waiting) return Promise.reject(new Error("a request is already waiting on this connection"));
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error("timeout")), this.timeoutMs);
      this.waiting = { resolve, reject, timer };
      socket.write(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    this.socket = socket;
    this.received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
      this.answer();
    });
    const lost = (error?: Error) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.fail(error ?? new Error("connection closed before the answer"));
    };
    socket.on("error", lost);
    socket.on("close", () => lost());
    return socket;
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = null;
    this.close();
    if (waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
  }

  /** Resolves the waiting request when its whole answer has arrived. */
  private answer(): void {
    const data = this.received;
    const headEnd = data.indexOf("\r\n\r\n");
    if (headEnd < 0 || !this.waiting) return;
    const head = data.toString("latin1", 0, headEnd).toLowerCase();
    const status = Number(head.slice(9, 12));
    let end: number | null;
    const length = /\r\ncontent-length: *(\d+)/.exec(head);
    if (length) end = headEnd + 4 + Number(length[1]) <= data.length ? headEnd + 4 + Number(length[1]) : null;
    else if (/\r\ntransfer-encoding: *chunked/.test(head)) end = chunkedEnd(data, headEnd + 4);
    else end = headEnd + 4;
    if (end === null) return;
    const waiting = this.waiting;
    this.waiting = null;
    clearTimeout(waiting.timer);
    this.received = data.subarray(end);
    if (/\r\nconnection: *close/.test(head)) this.close();
    waiting.resolve(status);
  }
}

/** Where a chunked body that starts at `from` ends, or null while it is incomplete (trailers are not expected). */
function chunkedEnd(data: Buffer, from: number): number | null {
  let at = from;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.toString("latin1", at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error("a chunk size that is no number");
    const next = lineEnd + 2 + size + 2;
    if (next > data.length) return null;
    if (size === 0) return next;
    at = next;
  }
}
