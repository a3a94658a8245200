import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../api/db/schema";
import { hashPassword } from "../../api/domain/passwords";
import { attributionCsv, attributionReport, attributionTable } from "../../api/domain/attribution";
import { parseReportArgs } from "../../scripts/report";
import { call, expectApiError, postJson, startApi, type Harness } from "./harness";
import { newPayingMember, notifyStatus, packagesFor, paymentRow, sandboxSecret, startPayment } from "./payments-support";

/**
 * Attribution on seeded data: funnel entries over HTTP, signups with their tracking values,
 * payments paid, failed and refunded; the report's numbers checked against counts made here.
 */
let api: Harness;
let passwordHash: string;
const password = "attribution-test-password";
const today = new Date().toISOString().slice(0, 10);
let ipCounter = 0;
const visit = (tracking: { network?: string; ref?: string; sub1?: string }) =>
  postJson(api.baseUrl, "/api/visit.php", { tracking }, { "X-Forwarded-Host": "localhost", "X-Client-IP": `192.0.2.${++ipCounter}` });

beforeAll(async () => {
  api = await startApi({ env: { SANDBOX_WEBHOOK_SECRET: sandboxSecret, SANDBOX_NOTIFY_DELAYS_MS: "" } });
  passwordHash = await hashPassword(password);
});

afterAll(async () => {
  await api.close();
});

describe("attribution report", () => {
  it("counts visits, signups, paying members and revenue per network, ref and sub", async () => {
    const funnels = [
      { network: "adnet", ref: "r1", sub1: "banner-a" },
      { network: "adnet", ref: "r1", sub1: "banner-b" },
      { network: "social", ref: "r9" },
    ];
    const expected = funnels.map(() => ({ visits: 0, signups: 0, payers: new Set<number>(), revenue: 0 }));
    // Visits: 5, 3 and 1 entries.
    for (const [i, n] of [5, 3, 1].entries()) {
      for (let k = 0; k < n; k++) expect((await visit(funnels[i]!)).status).toBe(200);
      expected[i]!.visits += n;
    }
    // Signups: 3 through the first funnel, 1 through the third, 1 without tracking.
    const members: (Awaited<ReturnType<typeof newPayingMember>> & { funnel: number })[] = [];
    for (const i of [0, 0, 0, 2, -1]) {
      const m = await newPayingMember(api, passwordHash, password);
      if (i >= 0) {
        await api.db.update(users).set({ network: funnels[i]!.network, ref: funnels[i]!.ref, sub1: funnels[i]!.sub1 ?? null, signupDate: new Date() }).where(eq(users.id, m.userId));
        expected[i]!.signups++;
      } else await api.db.update(users).set({ signupDate: new Date() }).where(eq(users.id, m.userId));
      members.push({ ...m, funnel: i });
    }
    const pkg = (await packagesFor(api, members[0]!, "NL")).packages[1]!;
    // Payments: member 0 pays twice (one paying member), member 1's payment fails, member 3 pays.
    const pay = async (who: (typeof members)[number], outcome: "paid" | "failed") => {
      const { payment_id } = await startPayment(api, who, { package_id: pkg.id, method: "ideal" });
      expect((await notifyStatus(api, payment_id, outcome)).status).toBe(200);
      if (outcome === "paid" && who.funnel >= 0) {
        expected[who.funnel]!.payers.add(who.userId);
        // What was paid (a member who signed up today gets the time bonus on the first).
        expected[who.funnel]!.revenue += (await paymentRow(api, payment_id)).amount;
      }
    };
    await pay(members[0]!, "paid");
    await pay(members[0]!, "paid");
    await pay(members[1]!, "failed");
    await pay(members[3]!, "paid");

    const rows = await attributionReport(api.db, today, today);
    for (const [i, funnel] of funnels.entries()) {
      const row = rows.find((r) => r.network === funnel.network && r.ref === funnel.ref && r.sub1 === (funnel.sub1 ?? ""));
      expect(row, JSON.stringify(funnel)).toBeDefined();
      expect(row).toMatchObject({ visits: expected[i]!.visits, signups: expected[i]!.signups, payingMembers: expected[i]!.payers.size });
      expect(row!.revenue).toEqual(expected[i]!.revenue ? { EUR: expected[i]!.revenue } : {});
    }
    // Nothing yesterday.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await attributionReport(api.db, yesterday, yesterday)).filter((r) => r.network === "adnet")).toEqual([]);

    const table = attributionTable(rows);
    expect(table.split("\n")[0]).toMatch(/^network\s+ref\s+sub1\s+sub2\s+sub3\s+visits\s+signups\s+paying members\s+revenue$/);
    const adnetA = (expected[0]!.revenue / 100).toFixed(2);
    expect(table).toMatch(new RegExp(`adnet\\s+r1\\s+banner-a\\s+-\\s+-\\s+5\\s+3\\s+1\\s+EUR ${adnetA}`));
    const csv = attributionCsv(rows).split("\n");
    expect(csv[0]).toBe("network,ref,sub1,sub2,sub3,visits,signups,paying_members,revenue_EUR");
    expect(csv).toContain(`adnet,r1,banner-a,,,5,3,1,${adnetA}`);
  });

  it("refuses a visit without tracking values or with bad ones", async () => {
    await expectApiError(await visit({}), 400, "validation_failed");
    await expectApiError(await call(api, "POST", "/api/visit.php", { body: { tracking: { network: "x".repeat(101) } } }), 400, "validation_failed");
    // C1 controls as well as C0: U+009B is a terminal's CSI, which the operator's report would print (docs/security.md, Operator reports).
    for (const network of ["ad\u009b31mnet", "ad\u0085net", "ad\u001bnet"]) {
      await expectApiError(await visit({ network }), 400, "validation_failed");
    }
  });

  it("gives a spreadsheet the formulas in tracking values as text", async () => {
    const formulas = { network: '=HYPERLINK("http://x","y")', ref: "+cmd|' /C calc'!A0", sub1: "@SUM(1+1)" };
    expect((await visit(formulas)).status).toBe(200);
    expect((await visit({ network: "-2+3" })).status).toBe(200);
    const rows = (await attributionReport(api.db, today, today)).filter((r) => r.network === formulas.network || r.network === "-2+3");
    expect(attributionCsv(rows)).toBe(
      [
        "network,ref,sub1,sub2,sub3,visits,signups,paying_members",
        "'-2+3,,,,,1,0,0",
        `"'=HYPERLINK(""http://x"",""y"")",'+cmd|' /C calc'!A0,'@SUM(1+1),,,1,0,0`,
        "",
      ].join("\n"),
    );
  });

  it("reads its arguments strictly", () => {
    expect(parseReportArgs(["--", "attribution", "--from", "2026-11-01", "--to", "2026-11-30", "--csv"])).toEqual({ report: "attribution", from: "2026-11-01", to: "2026-11-30", csv: true });
    expect(parseReportArgs(["attribution", "--from", "2026-02-30", "--to", "2026-03-01"])).toHaveProperty("error");
    expect(parseReportArgs(["attribution", "--from", "2026-03-02", "--to", "2026-03-01"])).toHaveProperty("error");
    expect(parseReportArgs(["sales"])).toHaveProperty("error");
  });
});
