import http from "node:http";
import https from "node:https";

/**
 * Web's JSON calls to the api (app/utils/api.server.ts) over node:http with kept-alive connections. Node's fetch
 * (undici behind WHATWG streams and Headers) cost 2.3 ms of web's 20 ms CPU per logged-in /members page under load
 * (bench/profile.ts on PostgreSQL); this costs a fraction of it. Files, streams and uploads still go through fetch.
 */
const transports = {
  "http:": { request: http.request, agent: new http.Agent({ keepAlive: true, maxSockets: 256, scheduling: "lifo" }) },
  "https:": { request: https.request, agent: new https.Agent({ keepAlive: true, maxSockets: 256, scheduling: "lifo" }) },
};

export type ApiAnswer = {
  status: number;
  /** Every Set-Cookie of the answer, as the api sent them. */
  setCookies: string[];
  header: (name: string) => string | undefined;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
};

/** One request; rejects on a network error (its `code`, ECONNREFUSED for one, is kept) or when `timeoutMs` has passed. */
export function requestApi(url: URL, options: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number }): Promise<ApiAnswer> {
  const { request, agent } = url.protocol === "https:" ? transports["https:"] : transports["http:"];
  return new Promise((resolve, reject) => {
    const headers = options.body === undefined ? options.headers : { ...options.headers, "Content-Length": String(Buffer.byteLength(options.body)) };
    const req = request(url, { method: options.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({
          status: res.statusCode ?? 0,
          setCookies: res.headers["set-cookie"] ?? [],
          header: (name) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(", ") : value;
          },
          json,
        });
      });
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer from the api in ${options.timeoutMs} ms`), { code: "ETIMEDOUT" })), options.timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(options.body);
  });
}
