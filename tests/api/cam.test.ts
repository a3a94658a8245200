import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Settings } from "#contract/settings";
import { camClicksCsv, camClicksReport } from "../../api/domain/cam";
import { parseReportArgs } from "../../scripts/report";
import { call, expectApiError, startApi, type Harness } from "./harness";

/** docs/product.md §1 live-cam tiles over HTTP: the settings say where they show; a click is counted per day and site and reaches the report. */
let api: Harness;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api?.close());

const settingsOf = async (host: string) => Settings.parse(await (await call(api, "GET", "/api/settings.php", { host })).json());
const click = (host: string, body: unknown) => call(api, "POST", "/api/cam-click.php", { host, body });

describe("live-cam tiles", () => {
  it("the default demo site sets them, a niche site does not", async () => {
    expect((await settingsOf("localhost")).cam_tiles).toMatchObject({ title: expect.any(String), cta: expect.any(String), link: expect.stringMatching(/^https:\/\//) });
    expect((await settingsOf("she.localhost")).cam_tiles).toBeNull();
  });

  it("a click answers the partner's address with the visitor's tracking values and is counted for the site and day, in the report", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const before = (await camClicksReport(api.db, today, today)).find((row) => row.site === "Rendezvous")?.clicks ?? 0;
    const res = await click("localhost", { slot: "search", tracking: { network: "net&1", ref: "r7" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toBe("https://cams.example/go?aff=rendezvous&network=net%261&ref=r7&sub1=");
    expect((await click("localhost", { slot: "similar" })).status).toBe(200);
    const rows = await camClicksReport(api.db, today, today);
    expect(rows.find((row) => row.site === "Rendezvous")).toEqual({ day: today, site: "Rendezvous", clicks: before + 2 });
    expect(camClicksCsv(rows)).toContain(`${today},Rendezvous,${before + 2}`);
    expect(parseReportArgs(["cam", "--from", today, "--to", today, "--csv"])).toEqual({ report: "cam", from: today, to: today, csv: true });
  });

  it("a site without tiles has nothing to click, and a bad click is a 400", async () => {
    await expectApiError(await click("she.localhost", { slot: "search" }), 404, "not_found");
    await expectApiError(await click("localhost", { slot: "sidebar" }), 400, "validation_failed");
    await expectApiError(await click("localhost", { slot: "search", tracking: { network: "x".repeat(500) } }), 400, "validation_failed");
  });
});
