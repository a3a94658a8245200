import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PushResponse } from "#contract/push";
import { pushSubscriptions, sessions } from "../../api/db/schema";
import { hashToken } from "../../api/domain/sessions";
import { call, expectApiError, insertMember, startApi, testPushEndpoints, testSessionSecret, type Harness } from "./harness";

/** POST /api/user.php?push=1 (docs/product.md §7): a member's browser push subscription. */
let api: Harness;

/** Names as a resolver answers them here: a private network, and a name with one public and one loopback address. */
const names: Record<string, string[]> = { "intranet.example.com": ["10.1.2.3"], "mixed.example.com": ["93.184.215.14", "127.0.0.1"], "v6.example.com": ["2a00:1450:4001:800::200e"] };

beforeAll(async () => {
  api = await startApi({ pushEndpoints: { resolve: (hostname) => (names[hostname] ? Promise.resolve(names[hostname]) : testPushEndpoints.resolve!(hostname)) } });
});
afterAll(async () => {
  await api?.close();
});

async function sessionFor(userId: number): Promise<string> {
  const value = `push-session-${userId}-${randomBytes(8).toString("hex")}`;
  await api.db.insert(sessions).values({ userId, tokenHash: hashToken(value, testSessionSecret), expiresAt: new Date(Date.now() + 86_400_000) });
  return value;
}

/** What PushSubscription.toJSON() gives: an https endpoint, a 65-byte P-256 key and a 16-byte secret. */
function subscription(endpoint = `https://push.example.com/send/${randomBytes(12).toString("hex")}`) {
  const point = Buffer.concat([Buffer.from([4]), randomBytes(64)]);
  return { endpoint, expirationTime: null, keys: { p256dh: point.toString("base64url"), auth: randomBytes(16).toString("base64url") } };
}

const rows = (userId: number) => api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

describe("POST /api/user.php?push=1", () => {
  it("asks a visitor to log in", async () => {
    await expectApiError(await call(api, "POST", "/api/user.php?push=1", { body: { subscription: subscription() } }), 403, "authentication_required");
  });

  it("stores the subscription once per endpoint, and forgets it on request", async () => {
    const member = await insertMember(api, { passwordHash: "x" });
    const token = await sessionFor(member.userId);
    const sub = subscription();
    for (let i = 0; i < 2; i++) {
      const res = await call(api, "POST", "/api/user.php?push=1", { token, body: { subscription: sub } });
      expect(res.status).toBe(200);
      expect(PushResponse.parse(await res.json())).toEqual({ subscribed: true });
    }
    expect(await rows(member.userId)).toEqual([expect.objectContaining({ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth })]);

    const off = await call(api, "POST", "/api/user.php?push=1", { token, body: { subscription: null, endpoint: sub.endpoint } });
    expect(PushResponse.parse(await off.json())).toEqual({ subscribed: false });
    expect(await rows(member.userId)).toEqual([]);
  });

  it("moves an endpoint to the member now using that browser, and never removes another member's", async () => {
    const first = await insertMember(api, { passwordHash: "x" });
    const second = await insertMember(api, { passwordHash: "x" });
    const sub = subscription();
    await call(api, "POST", "/api/user.php?push=1", { token: await sessionFor(first.userId), body: { subscription: sub } });
    const secondToken = await sessionFor(second.userId);
    await call(api, "POST", "/api/user.php?push=1", { token: secondToken, body: { subscription: sub } });
    expect(await rows(first.userId)).toEqual([]);
    expect(await rows(second.userId)).toHaveLength(1);
    // The first member cannot unsubscribe the second one's browser.
    await call(api, "POST", "/api/user.php?push=1", { token: await sessionFor(first.userId), body: { subscription: null, endpoint: sub.endpoint } });
    expect(await rows(second.userId)).toHaveLength(1);
  });

  it("refuses what is no push subscription with 400 and stores nothing", async () => {
    const member = await insertMember(api, { passwordHash: "x" });
    const token = await sessionFor(member.userId);
    const good = subscription();
    for (const body of [
      {},
      { subscription: { ...good, endpoint: "http://push.example.com/plain-http" } },
      { subscription: { ...good, endpoint: "not a url" } },
      { subscription: { ...good, keys: { p256dh: "short", auth: good.keys.auth } } },
      { subscription: { endpoint: good.endpoint } },
      { subscription: null },
    ]) {
      await expectApiError(await call(api, "POST", "/api/user.php?push=1", { token, body }), 400, "validation_failed");
    }
    expect(await rows(member.userId)).toEqual([]);
  });

  it("takes only public push services: https, port 443, public addresses after DNS; refuses the rest with 400 and stores nothing", async () => {
    const member = await insertMember(api, { passwordHash: "x" });
    const token = await sessionFor(member.userId);
    const refused = [
      "https://127.0.0.1:9443/x",
      "https://127.0.0.1:5432/x",
      "https://127.0.0.1/x",
      "https://localhost/x",
      "https://push.localhost/x",
      "https://10.0.0.8/x",
      "https://192.168.1.1/x",
      "https://172.16.0.1/x",
      "https://100.64.0.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://0.0.0.0/x",
      "https://224.0.0.1/x",
      "https://[::1]/x",
      "https://[::]/x",
      "https://[fe80::1]/x",
      "https://[fd00::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:a9fe:a9fe]/x",
      // Spellings the URL parser turns into 127.0.0.1: decimal, hex, octal, short.
      "https://2130706433/x",
      "https://0x7f.0.0.1/x",
      "https://0177.0.0.1/x",
      "https://127.1/x",
      "https://intranet.example.com/x",
      "https://mixed.example.com/x",
      "https://no-such-host.invalid/x",
      "https://push.example.com:8443/x",
      "https://push.example.com:443@127.0.0.1/x",
      "https://user:secret@push.example.com/x",
      "http://push.example.com/x",
    ];
    for (const endpoint of refused) {
      const body = await expectApiError(await call(api, "POST", "/api/user.php?push=1", { token, body: { subscription: subscription(endpoint) } }), 400, "validation_failed");
      expect(Object.keys(body.fields ?? {}), endpoint).toEqual(["subscription.endpoint"]);
    }
    expect(await rows(member.userId)).toEqual([]);
    // Public push services pass: a name with public addresses (IPv4, IPv6), the default port written out.
    for (const endpoint of ["https://v6.example.com/wpush/v2/abc", "https://push.example.com:443/send/abc"]) {
      expect((await call(api, "POST", "/api/user.php?push=1", { token, body: { subscription: subscription(endpoint) } })).status, endpoint).toBe(200);
    }
    expect(await rows(member.userId)).toHaveLength(2);
  });

  it("leaves the login on POST /api/user.php without ?push alone", async () => {
    const res = await call(api, "POST", "/api/user.php", { body: { email: "nobody@example.com", password: "whatever-password" } });
    await expectApiError(res, 401, "login_failed");
  });
});
