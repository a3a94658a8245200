import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PushResponse } from "#contract/push";
import { pushSubscriptions, sessions } from "../../api/db/schema";
import { hashToken } from "../../api/domain/sessions";
import { call, expectApiError, insertMember, startApi, testSessionSecret, type Harness } from "./harness";

/** POST /api/user.php?push=1 (spec 7): a member's browser push subscription. */
let api: Harness;

beforeAll(async () => {
  api = await startApi();
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

  it("leaves the login on POST /api/user.php without ?push alone", async () => {
    const res = await call(api, "POST", "/api/user.php", { body: { email: "nobody@example.com", password: "whatever-password" } });
    await expectApiError(res, 401, "login_failed");
  });
});
