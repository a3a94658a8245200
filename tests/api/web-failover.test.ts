import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor } from "../../app/utils/api.server";
import { ApiInstances } from "../../server/api-instances";
import { startApi, type Harness } from "./harness";
import { webLoadContext } from "./web-context";

/**
 * Scaling out: web's calls to an api instance that refuses the connection go to the next one
 * (server/api-instances.ts). JSON calls did; a file download (a data export) and a passed-on stream (the staff
 * console's events) tried only the first instance and answered 503. Here the first instance is a closed port and
 * the second a real api, wired as server/app.ts wires them.
 */
let api: Harness;
let closedOrigin: string;

beforeAll(async () => {
  api = await startApi();
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  closedOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise((closed) => server.close(closed));
});
afterAll(async () => {
  await api?.close();
});

function contextFor(instances: ApiInstances): AppLoadContext {
  return webLoadContext("web-failover", { apiUrl: instances.pick(), apiFailed: (url) => instances.failed(url) });
}

const page = new Request("http://localhost/profile/export");

describe("web's file and stream calls pass over an api instance that refuses the connection", () => {
  it("a data export download reaches the next instance, which answers (here: the link is not valid)", async () => {
    const result = await apiFor(page, contextFor(new ApiInstances([closedOrigin, api.baseUrl]))).file("/api/dataexport-file.php", { token: "not-a-token" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.status).toBeLessThan(500);
  });

  it("the staff events stream reaches the next instance, which answers (here: no staff session)", async () => {
    const result = await apiFor(page, contextFor(new ApiInstances([closedOrigin, api.baseUrl]))).stream("/api/staff/events.php");
    expect(result).toMatchObject({ ok: false, error: { error: "authentication_required" } });
  });

  it("with no other instance, both answer 503", async () => {
    const lone = () => apiFor(page, contextFor(new ApiInstances([closedOrigin])));
    await expect(lone().file("/api/dataexport-file.php", { token: "not-a-token" })).rejects.toMatchObject({ status: 503 });
    await expect(lone().stream("/api/staff/events.php")).rejects.toMatchObject({ status: 503 });
  });
});
