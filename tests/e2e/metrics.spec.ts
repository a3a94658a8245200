import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { expect, sameOrigin, test } from "./fixtures";
import { createActivatedMember } from "./accounts-support";
import { labelValues, parsePrometheusText, samplesOf, sumOf, type Sample } from "../prometheus-text";

/**
 * Metrics (docs/operations.md, Metrics): after a scripted session through web (signup and activation, login, the member
 * search, a message, a sandbox payment) both services' /metrics (behind METRICS_TOKEN, playwright.config.ts) have
 * every family with plausible values, and no label has more than a bounded set of values or one that looks like an
 * id or an address. Requests only, no page: it runs once, in the `js` project (it has no @nojs tag). The counters
 * are the whole run's (other specs share the servers), so the checks are lower bounds and bounds on labels.
 */

const webPort = Number(process.env.E2E_PORT ?? 4100);
const apiMetricsUrl = `http://127.0.0.1:${webPort + 1}/metrics`;
const token = process.env.E2E_METRICS_TOKEN ?? "";

/** The families each service serves (docs/operations.md, Metrics), besides Node's process metrics. */
const webFamilies = ["http_requests_total", "http_request_duration_seconds", "api_calls_total", "api_call_duration_seconds"];
const apiFamilies = [
  "http_requests_total",
  "http_request_duration_seconds",
  "db_query_duration_seconds",
  "db_pool_connections",
  "event_streams_open",
  "job_runs_total",
  "job_duration_seconds",
  "job_backlog",
  "payments_pending_oldest_seconds",
  "signups_total",
  "messages_sent_total",
  "credits_spent_total",
  "payments_total",
  "push_sent_total",
  "mails_total",
];

/** A label value that names someone or something rather than a kind: digits only, an address, a UUID. */
const idLike = /^\d+$|@|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function scrape(request: APIRequestContext, url: string): Promise<{ text: string; samples: Sample[] }> {
  const response = await request.get(url, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), `${url} with the token`).toBe(200);
  const text = await response.text();
  return { text, samples: parsePrometheusText(text) };
}

/** Every family is declared (# TYPE), each sample is the service's, and the labels stay bounded and anonymous. */
function expectWellFormed(service: "web" | "api", scraped: { text: string; samples: Sample[] }, families: string[]): void {
  for (const family of [...families, "process_cpu_user_seconds_total", "nodejs_eventloop_lag_seconds"]) {
    expect(scraped.text, `${service} declares ${family}`).toMatch(new RegExp(`^# TYPE ${family} `, "m"));
  }
  expect(scraped.samples.filter((s) => s.labels.service !== service).map((s) => s.name)).toEqual([]);
  for (const [label, values] of labelValues(scraped.samples)) {
    expect(values.size, `${service} label ${label}: ${[...values].join(", ")}`).toBeLessThanOrEqual(label === "route" || label === "endpoint" ? 200 : 20);
  }
  // Node's version is the one label of numbers (major, minor, patch), and not about anyone.
  const labelled = scraped.samples.filter((s) => s.name !== "nodejs_version_info");
  const suspicious = labelled.flatMap((s) => Object.entries(s.labels).filter(([label, value]) => label !== "le" && idLike.test(value)).map(([label, value]) => `${s.name} ${label}=${value}`));
  expect(suspicious, `${service} labels that look like an id or an address`).toEqual([]);
}

test("both services' metrics after a member's session: every family, plausible values, bounded labels", async ({ request, playwright, baseURL }) => {
  test.setTimeout(90_000);
  // Signup and activation (its mail), then a login through web's form: the session cookie stays in `request`.
  // The message goes to a member of the test's own (messages to the pool's members would show in other tests).
  const recipientRequest = await playwright.request.newContext({ baseURL });
  const recipient = await createActivatedMember(recipientRequest);
  const member = await createActivatedMember(request);
  const login = await request.post("/login", { headers: sameOrigin, form: { email: member.email, password: member.password }, maxRedirects: 0 });
  expect(login.status()).toBe(302);
  expect(login.headers().location).toBe("/members");

  // The member search (a page: its loader asks the api), and a message.
  expect((await request.get("/members")).status()).toBe(200);
  const sent = await request.post("/api/message.php", { headers: sameOrigin, data: { to: recipient.profileId, body: "Hello from the metrics test", key: randomUUID() } });
  expect(sent.status(), await sent.text()).toBe(201);

  // A sandbox payment through web's pages: package and method, the TEST checkout's "paid", the result page.
  const packages = (await (await request.get("/api/packages.php")).json()) as { packages: { id: number }[] };
  const packageId = packages.packages[0]?.id;
  expect(packageId).toBeDefined();
  const started = await request.post(`/credits/${packageId}/ideal`, { headers: sameOrigin, form: {}, maxRedirects: 0 });
  expect(started.status()).toBe(302);
  const checkout = started.headers().location ?? "";
  expect(checkout).toMatch(/^\/sandbox-checkout\/[\w-]{32}$/);
  const paid = await request.post(checkout, { headers: sameOrigin, form: { outcome: "paid" }, maxRedirects: 0 });
  expect(paid.status()).toBe(302);
  const result = paid.headers().location ?? "";
  const paymentId = /^\/payment\/(\d+)$/.exec(result)?.[1];
  expect(paymentId, result).toBeDefined();
  // The sandbox notifies the api a moment later (as providers do): paid once the notification is applied.
  await expect
    .poll(async () => ((await (await request.get(`/api/payment.php?id=${paymentId}`)).json()) as { payment: { status: string } }).payment.status, { timeout: 15_000 })
    .toBe("paid");
  expect((await request.get(result)).status()).toBe(200);

  // Never public: without the token, or with another, no metrics.
  for (const url of ["/metrics", apiMetricsUrl]) {
    expect((await request.get(url)).status(), `${url} without a token`).toBe(401);
    expect((await request.get(url, { headers: { Authorization: `Bearer ${token}x` } })).status(), `${url} with a wrong token`).toBe(401);
  }

  const web = await scrape(request, "/metrics");
  expectWellFormed("web", web, webFamilies);
  expect(sumOf(web.samples, "http_requests_total", { method: "GET", route: "routes/members._index", status: "2xx" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(web.samples, "http_requests_total", { method: "POST", route: "routes/login", status: "3xx" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(web.samples, "http_requests_total", { route: "proxy /api", status: "2xx" })).toBeGreaterThanOrEqual(4);
  expect(sumOf(web.samples, "http_request_duration_seconds_count", { route: "routes/members._index" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(web.samples, "http_request_duration_seconds_sum", { route: "routes/members._index" })).toBeGreaterThan(0);
  // The pages' own api calls, by endpoint: the search, the login, the payment and its checkout.
  for (const endpoint of ["/api/members.php", "/api/user.php", "/api/payment.php", "/api/sandbox-checkout.php"]) {
    expect(sumOf(web.samples, "api_calls_total", { endpoint, status: "2xx" }), endpoint).toBeGreaterThanOrEqual(1);
    expect(sumOf(web.samples, "api_call_duration_seconds_count", { endpoint }), endpoint).toBeGreaterThanOrEqual(1);
  }
  // No page's call went to a path outside web's list (server/api-endpoints.ts).
  expect(sumOf(web.samples, "api_calls_total", { endpoint: "other" })).toBe(0);
  expect(sumOf(web.samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);

  const api = await scrape(request, apiMetricsUrl);
  expectWellFormed("api", api, apiFamilies);
  expect(sumOf(api.samples, "http_requests_total", { method: "GET", route: "/api/members.php", status: "2xx" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "http_requests_total", { method: "POST", route: "/api/message.php", status: "2xx" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "db_query_duration_seconds_count")).toBeGreaterThan(0);
  expect(sumOf(api.samples, "db_query_duration_seconds_sum")).toBeGreaterThan(0);
  expect(sumOf(api.samples, "db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
  expect(samplesOf(api.samples, "event_streams_open")).toHaveLength(1);
  expect(sumOf(api.samples, "job_runs_total", { job: "push", outcome: "ok" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "job_duration_seconds_count", { job: "push" })).toBeGreaterThanOrEqual(1);
  expect(samplesOf(api.samples, "job_backlog").map((s) => s.labels.job).sort()).toEqual(["data-export", "notification-mails", "push", "settle-payments"]);
  for (const backlog of samplesOf(api.samples, "job_backlog")) expect(backlog.value, backlog.labels.job).toBeGreaterThanOrEqual(0);
  expect(samplesOf(api.samples, "payments_pending_oldest_seconds")[0]?.value).toBeGreaterThanOrEqual(0);
  // The session's business, counted where it happened.
  expect(sumOf(api.samples, "signups_total")).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "messages_sent_total", { kind: "text" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "credits_spent_total", { reason: "message" })).toBeGreaterThan(0);
  expect(sumOf(api.samples, "payments_total", { provider: "sandbox", state: "pending" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "payments_total", { provider: "sandbox", state: "paid" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "mails_total", { outcome: "sent" })).toBeGreaterThanOrEqual(1);
  expect(sumOf(api.samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);

  // The two members go, so they do not crowd other tests' searches.
  for (const [context, account] of [[request, member], [recipientRequest, recipient]] as const) {
    expect((await context.post("/api/delete-account.php", { headers: sameOrigin, data: { password: account.password } })).status()).toBe(200);
  }
  await recipientRequest.dispose();
});
