import { mkdirSync, writeFileSync } from "node:fs";
import { test } from "@playwright/test";
import { expect } from "./fixtures";
import { createActivatedMember, memberPoolDir } from "./accounts-support";

/**
 * The "member pool" project (playwright.config.ts), run once before the js and nojs projects: it
 * makes the activated members the tests take (activeMember() in accounts-support.ts), each by signup
 * and the activation link of its mail, a few at a time. A test then only logs in. The signup and
 * activation flows themselves are tested in signup.spec.ts and the api tests.
 */
const poolSize = Number(process.env.E2E_MEMBER_POOL ?? 80);
const atOnce = 8;

test("make the member pool", async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const dir = memberPoolDir();
  mkdirSync(dir, { recursive: true });
  let made = 0;
  for (let start = 0; start < poolSize; start += atOnce) {
    const batch = Array.from({ length: Math.min(atOnce, poolSize - start) }, (_, i) => start + i);
    // One batch after the other: a later file number is a newer member (activeMember() takes the newest first).
    await Promise.all(
      batch.map(async (n) => {
        const request = await playwright.request.newContext({ baseURL });
        try {
          const member = await createActivatedMember(request);
          writeFileSync(`${dir}/${String(n).padStart(4, "0")}.json`, JSON.stringify(member));
          made++;
        } finally {
          await request.dispose();
        }
      }),
    );
  }
  expect(made).toBe(poolSize);
});
