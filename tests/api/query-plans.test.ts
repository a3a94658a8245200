import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateScaleData } from "../../api/db/scale-data";
import { watchStatements } from "../../api/db/query-timing";
import type { SqlSession } from "../../api/db/client";
import { call, login, startApi, type Harness } from "./harness";
import { newStaff, staffCall, staffToken } from "./staff-support";

/*
 * The pages' queries stay bounded at a real site's size (docs/performance.md): on the demo data plus 50,000 generated
 * members (api/db/scale-data.ts), every SELECT an endpoint runs is explained with EXPLAIN ANALYZE, and no step of its
 * plan may read more than `maxRowsRead` rows of a table (the rows it returned plus those its filter removed, over all
 * its loops). A count or sort over every matching member reads tens of thousands.
 */

const maxRowsRead = 5_000;

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};

/** Each scan of a table in the plan: what it read over all its loops. */
function scans(node: PlanNode, found: { table: string; type: string; index?: string; read: number }[] = []) {
  if (node["Relation Name"]) {
    const loops = node["Actual Loops"] ?? 1;
    const read = ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) * loops;
    found.push({ table: node["Relation Name"], type: node["Node Type"], index: node["Index Name"], read });
  }
  for (const child of node.Plans ?? []) scans(child, found);
  return found;
}

let api: Harness;
let session: SqlSession;
let member: string;
let admin: string;
let operator: string;
let email = "";
let conversationId = 0;
let fictionalId = 0;

beforeAll(async () => {
  api = await startApi();
  session = await api.session();
  await generateScaleData(session.exec, { members: 50_000, otherMembers: 2_000, messages: 150_000, likesPerMember: 2 });
  member = await login(api.baseUrl, "premium@example.com");
  admin = await staffToken(api, await newStaff(api, "admin", []));
  operator = await staffToken(api, await newStaff(api, "operator"));
  email = String((await session.exec("select email from users where email like '%@scale.example' order by id desc limit 1")).rows[0]?.email);
  // A conversation of the inbox (a member's with a site-run profile on site 1) and its site-run profile.
  const inboxed = (await session.exec("select id, fictional_profile_id from conversations where fictional_profile_id is not null and site_id = 1 and last_message_at is not null order by last_message_at desc limit 1")).rows[0];
  conversationId = Number(inboxed?.id);
  fictionalId = Number(inboxed?.fictional_profile_id);
  // At 50,000 members a sequential scan still looks cheap to the planner where at a million it does not: the plans are
  // explained with it off, so each shows the bounded index path the query has (or, without one, what reads them all).
  await session.exec("set enable_seqscan = off");
}, 600_000);

afterAll(async () => {
  await session?.release();
  await api?.close();
});

/** The SELECTs `request` runs, each explained: its scans. */
async function plansOf(request: () => Promise<Response>) {
  const statements: { text: string; params: unknown[] }[] = [];
  const stop = watchStatements((text, params) => statements.push({ text, params }));
  let res: Response;
  try {
    res = await request();
  } finally {
    stop();
  }
  expect(res.status, await res.clone().text()).toBe(200);
  const explained = [];
  for (const statement of statements.filter((s) => /^\s*(select|with)\b/i.test(s.text))) {
    const [row] = (await session.exec(`explain (analyze, format json) ${statement.text}`, statement.params)).rows;
    const plan = row?.["QUERY PLAN"] as unknown;
    const root = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
    explained.push({ text: statement.text, scans: scans(root[0]!.Plan) });
  }
  expect(explained.length).toBeGreaterThan(0);
  return explained;
}

function expectBounded(explained: Awaited<ReturnType<typeof plansOf>>) {
  for (const { text, scans: found } of explained) {
    for (const scan of found) {
      const where = `${scan.type} on ${scan.table}${scan.index ? ` (${scan.index})` : ""} in: ${text.slice(0, 300)}`;
      expect(scan.read, `rows read by ${where}`).toBeLessThanOrEqual(maxRowsRead);
    }
  }
}

const member_ = (path: string) => () => call(api, "GET", path, { token: member });
const staff_ = (token: () => string, path: string) => () => staffCall(api, token(), "GET", path);

describe("at 50,000 members, the pages' queries read a bounded number of rows", () => {
  const cases: [string, () => () => Promise<Response>][] = [
    ["the search, page 1", () => member_("/api/members.php")],
    ["the search by gender and age, page 5", () => member_("/api/members.php?gender=female&min_age=25&max_age=45&page=5")],
    ["the search's last page", () => member_("/api/members.php?page=50")],
    ["the search by country and region", () => member_("/api/members.php?country=NL&region=NH")],
    ["a narrow search (few results, similar members)", () => member_("/api/members.php?gender=male&country=FI&min_age=70&max_age=80")],
    ["signup matches", () => member_("/api/signup-matches.php")],
    ["the chats list", () => member_("/api/chats.php")],
    ["staff: a member by e-mail", () => staff_(() => admin, `/api/staff/members.php?q=${encodeURIComponent(email)}`)],
    ["staff: members by a name's beginning", () => staff_(() => admin, "/api/staff/members.php?q=Anna")],
    ["staff: a member by id", () => staff_(() => admin, "/api/staff/members.php?q=1234")],
    ["staff: the inbox's new queue", () => staff_(() => operator, "/api/staff/inbox.php?queue=new")],
    ["staff: the inbox's stopped queue", () => staff_(() => operator, "/api/staff/inbox.php?queue=stopped")],
    ["staff: the inbox's first queue with conversations", () => staff_(() => operator, "/api/staff/inbox.php")],
    ["staff: the inbox's unreplied queue of one site's paying members", () => staff_(() => operator, "/api/staff/inbox.php?queue=unreplied&site=1&paying=1")],
    ["staff: the inbox's new queue of one site-run profile", () => staff_(() => operator, `/api/staff/inbox.php?queue=new&site=1&profile=${fictionalId}`)],
    ["staff: a conversation of the inbox, with its context", () => staff_(() => operator, `/api/staff/inbox-conversation.php?id=${conversationId}`)],
    ["staff: the operator's desk", () => staff_(() => operator, "/api/staff/desk.php")],
    ["staff: a site's saved replies", () => staff_(() => admin, "/api/staff/saved-replies.php?site=1")],
    ["staff: the next conversation, claimed", () => () => staffCall(api, operator, "POST", "/api/staff/inbox-next.php", { site: 1 })],
    ["the likes", () => member_("/api/likes.php")],
    ["the likes page's tab", () => member_("/api/likes.php?tab=received&with_user=1")],
    ["the member and their badge counts", () => member_("/api/user.php")],
    ["staff: the queue sizes", () => staff_(() => admin, "/api/staff/queues.php")],
    ["staff: the photo queue", () => staff_(() => admin, "/api/staff/photos.php")],
    ["staff: the reports queue", () => staff_(() => admin, "/api/staff/reports.php")],
    ["staff: the site-run profiles", () => staff_(() => admin, "/api/staff/profiles.php")],
    ["staff: the credit packages and their sales", () => staff_(() => admin, "/api/staff/packages.php")],
    ["staff: the operators' figures of 90 days", () => staff_(() => admin, "/api/staff/operators.php?days=90")],
    ["staff: the audit log", () => staff_(() => admin, "/api/staff/audit.php")],
    ["staff: the audit log of a range of days and an action", () => staff_(() => admin, "/api/staff/audit.php?action=staff.login&from=2026-01-01&to=2026-01-31")],
    ["staff: the analytics of 30 days, every site", () => staff_(() => admin, "/api/staff/analytics.php")],
    ["staff: the analytics of 90 days, one site", () => staff_(() => admin, "/api/staff/analytics.php?site=1&period=90")],
    ["staff: the messages held for contact details", () => staff_(() => admin, "/api/staff/held-messages.php")],
  ];
  // Not listed (docs/performance.md, what is left): the dashboard counts every paying member (kept a minute).
  for (const [name, request] of cases) {
    it(name, async () => {
      expectBounded(await plansOf(request()));
    });
  }
});
