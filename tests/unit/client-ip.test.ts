import { afterAll, beforeAll, describe, expect, it } from "vitest";
import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { clientOf } from "../../api/http/client";

/** Which address the api counts a request against: X-Client-IP only from a peer its TRUST_PROXY trusts (web). */
const servers: Server[] = [];

async function apiTrusting(trustProxy: boolean | string): Promise<string> {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.get("/who", (req, res) => void res.json(clientOf(req)));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/who`;
}

async function clientIp(url: string, headers: Record<string, string> = {}): Promise<string> {
  return ((await (await fetch(url, { headers })).json()) as { ip: string }).ip;
}

let trusting = "";
let untrusting = "";
beforeAll(async () => {
  trusting = await apiTrusting("loopback");
  untrusting = await apiTrusting(false);
});
afterAll(() => {
  for (const server of servers) server.close();
});

describe("the client IP the api counts", () => {
  it("is web's X-Client-IP when web is a trusted peer", async () => {
    expect(await clientIp(trusting, { "X-Client-IP": "203.0.113.7" })).toBe("203.0.113.7");
    expect(await clientIp(trusting, { "X-Client-IP": "2001:db8::1" })).toBe("2001:db8::1");
  });

  it("is the connection's address when the peer is not trusted, whatever it claims", async () => {
    expect(await clientIp(untrusting, { "X-Client-IP": "203.0.113.7" })).toMatch(/127\.0\.0\.1$/);
  });

  it("is the connection's address when the header is not an IP address", async () => {
    for (const claimed of ["not-an-ip", "203.0.113.7, 10.0.0.1", "999.1.1.1", ""]) {
      expect(await clientIp(trusting, { "X-Client-IP": claimed })).toMatch(/127\.0\.0\.1$/);
    }
  });

  it("ignores X-Forwarded-For: web sends the address in X-Client-IP", async () => {
    expect(await clientIp(trusting, { "X-Forwarded-For": "203.0.113.9" })).toMatch(/127\.0\.0\.1$/);
  });
});
