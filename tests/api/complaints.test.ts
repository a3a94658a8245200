import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { ComplaintResponse } from "#contract/complaints";
import { complaints } from "../../api/db/schema";
import { expectApiError, postJson, readMails, startApi, type Harness } from "./harness";

/** Complaints (/api/complaint.php) over HTTP: stored with a reference, mailed to the site's support address, bad input 400, limited per client. */
let api: Harness;
let ipCounter = 0;
const freshIp = () => `203.0.113.${++ipCounter}`;
const complaint = { name: "Jane Doe", email: "jane@example.com", content_url: "https://localhost/members/12", reason: "impersonation", message: "This profile uses my photos without my consent." };
const send = (body: unknown, ip = freshIp()) => postJson(api.baseUrl, "/api/complaints.php", body, { "X-Forwarded-Host": "localhost", "X-Client-IP": ip });

beforeAll(async () => {
  // The production limits (CLIENT_LIMIT_SCALE 1): 5 complaints an hour from one address.
  api = await startApi({ env: { CLIENT_LIMIT_SCALE: "1" } });
});

afterAll(async () => {
  await api.close();
});

describe("POST /api/complaints.php", () => {
  it("stores the complaint, mails it to support_email with the reference, and answers the reference", async () => {
    const res = await send(complaint);
    expect(res.status).toBe(201);
    const { reference } = ComplaintResponse.parse(await res.json());
    expect(reference).toMatch(/^C-[2-9A-HJ-NP-Z]{8}$/);
    const [row] = await api.db.select().from(complaints).where(eq(complaints.reference, reference));
    expect(row).toMatchObject({ name: "Jane Doe", email: "jane@example.com", reason: "impersonation", userId: null });
    const mail = (await readMails(api)).find((m) => m.subject.includes(reference));
    expect(mail?.to).toBe("support@rendezvous.example");
    expect(mail?.text).toContain("This profile uses my photos without my consent.");
    expect(mail?.text).toContain("https://localhost/members/12");
  });

  it("answers bad input with 400 and the fields, and stores nothing", async () => {
    const before = (await api.db.select().from(complaints)).length;
    for (const [field, value] of [["email", "not-an-address"], ["content_url", "javascript:alert(1)"], ["reason", "boredom"], ["message", "short"], ["name", "J"]] as const) {
      const error = await expectApiError(await send({ ...complaint, [field]: value }), 400, "validation_failed");
      expect(Object.keys(error.fields ?? {})).toEqual([field]);
    }
    await expectApiError(await send("{"), 400, "validation_failed");
    expect((await api.db.select().from(complaints)).length).toBe(before);
  });

  it("takes 5 complaints an hour from one address", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await send(complaint, ip)).status).toBe(201);
    await expectApiError(await send(complaint, ip), 429, "too_many_requests");
    expect((await send(complaint)).status).toBe(201);
  });
});
