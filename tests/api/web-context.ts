import { Writable } from "node:stream";
import type { AppLoadContext } from "@remix-run/node";
import pino from "pino";

/** A load context as server/app.ts gives web's loaders, for running them (or apiFor) against a real api without web. */
export function webLoadContext(requestId: string, api: Pick<AppLoadContext, "apiUrl" | "apiFailed">): AppLoadContext {
  const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  return {
    requestId,
    cspNonce: "",
    logger: pino({ level: "silent" }, sink),
    ...api,
    clientIp: "127.0.0.1",
    upstream: [],
    forwardSetCookie: () => undefined,
    memo: new Map(),
    settingsCacheSeconds: 0,
  };
}
