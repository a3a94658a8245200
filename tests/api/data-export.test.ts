import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { DataExportStatus } from "#contract/data-export";
import { dataExports } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { call, expectApiError, insertMember, login, mailsTo, startApi, type Harness } from "./harness";

/**
 * Data export in the api: one request per member per day (limit data_export, real scale), the job's
 * zip and mail, downloads by that member only and for 7 days.
 */
const password = "export-password-1";
let api: Harness;
let alice: { userId: number; email: string; token: string };
let bobToken: string;

beforeAll(async () => {
  api = await startApi({ env: { CLIENT_LIMIT_SCALE: "1" } });
  const passwordHash = await hashPassword(password);
  const a = await insertMember(api, { passwordHash });
  const b = await insertMember(api, { passwordHash });
  alice = { ...a, token: await login(api.baseUrl, a.email, password) };
  bobToken = await login(api.baseUrl, b.email, password);
});
afterAll(async () => {
  await api?.close();
});

async function status(token: string): Promise<DataExportStatus> {
  const res = await call(api, "GET", "/api/dataexport.php", { token });
  expect(res.status).toBe(200);
  return DataExportStatus.parse(await res.json());
}

describe("data export", () => {
  it("builds the member's zip, mails the link, and lets only that member download it for 7 days", async () => {
    await expectApiError(await call(api, "POST", "/api/dataexport.php", { body: {} }), 403, "authentication_required");
    expect((await status(alice.token)).status).toBe("none");

    const asked = await call(api, "POST", "/api/dataexport.php", { token: alice.token, body: {} });
    expect(asked.status).toBe(202);
    await expect.poll(async () => (await status(alice.token)).status).toBe("ready");
    const ready = await status(alice.token);
    expect(new Date(ready.expires_at!).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    // The mail goes out right after the zip is marked ready.
    await expect.poll(async () => (await mailsTo(api, alice.email, "/profile/export")).length).toBe(1);
    const [mail] = await mailsTo(api, alice.email, "/profile/export");
    expect(mail?.text).toContain(`/profile/export?token=${ready.token}`);

    const file = `/api/dataexport-file.php?token=${ready.token}`;
    const download = await call(api, "GET", file, { token: alice.token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.zip"$/);
    const files = unzipSync(new Uint8Array(await download.arrayBuffer()));
    expect(JSON.parse(strFromU8(files["account.json"]!))).toMatchObject({ id: alice.userId, email: alice.email });
    expect(strFromU8(files["account.json"]!)).not.toContain("passwordHash");

    await expectApiError(await call(api, "GET", file, { token: bobToken }), 404, "not_found");
    await expectApiError(await call(api, "GET", file), 403, "authentication_required");
    await expectApiError(await call(api, "GET", "/api/dataexport-file.php?token=x"), 403, "authentication_required");

    // One a day.
    const again = await call(api, "POST", "/api/dataexport.php", { token: alice.token, body: {} });
    expect(again.status).toBe(429);

    // Past its 7 days the link gives nothing.
    await api.db.update(dataExports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(dataExports.userId, alice.userId));
    await expectApiError(await call(api, "GET", file, { token: alice.token }), 404, "not_found");
  });
});
