/**
 * What the data-scale bench (bench/data-scale.ts) times: every api GET a member page or the staff console calls, with
 * realistic parameters, and the GET routes it leaves out, each with the reason. `uncoveredGets` holds the two lists to
 * the api's router, so a new GET route fails the bench until it is timed here or given a reason.
 */
import type { Endpoint } from "../tests/api/routed-endpoints";

/** Whose session a request carries: the demo premium member, the admin, or the operator (the inbox is theirs). */
export type Who = "member" | "admin" | "operator";

/** The ids a database gives the requests (bench/data-scale-db.ts finds them by SQL and through the api's answers). */
export type EndpointIds = {
  /** A member of the default site other than the premium member (a generated one where there are any). */
  member: { userId: number; profileId: number; email: string; firstName: string };
  /** One of the premium member's conversations. */
  conversationId: number;
  /** A payment of the premium member, if any (the writes add some; the GETs run before them). */
  paymentId: number | null;
  /** A report, if any. */
  reportId: number | null;
  /** A site-run (fictional) profile. */
  fictionalProfileId: number | null;
  siteId: number;
  /** The conversation the operator's inbox lists first, if any. */
  inboxConversationId: number | null;
};

export type TimedGet = { name: string; path: string; who: Who };

/**
 * The timed GETs, in the order a member and then staff would meet them. Names are the same on every database (the
 * table matches rows by name); a row whose id a database lacks is left out there and says so in the table.
 */
export function timedGets(ids: EndpointIds): (TimedGet | { name: string; missing: string })[] {
  const m = ids.member;
  const optional = (name: string, id: number | null, path: (id: number) => string, who: Who, missing: string) =>
    id === null ? { name, missing } : { name, path: path(id), who };
  return [
    { name: "user.php", path: "/api/user.php", who: "member" },
    { name: "members.php page 1 (as /members asks, with_user=1)", path: "/api/members.php?page=1&with_user=1", who: "member" },
    { name: "members.php page 1", path: "/api/members.php?page=1", who: "member" },
    { name: "members.php female 25-45 page 5", path: "/api/members.php?gender=female&min_age=25&max_age=45&page=5", who: "member" },
    { name: "members.php female NL 25-45 page 1", path: "/api/members.php?gender=female&country=NL&min_age=25&max_age=45&page=1", who: "member" },
    { name: "members.php page 50", path: "/api/members.php?page=50", who: "member" },
    { name: "member.php?id= (with_user=1)", path: `/api/member.php?id=${m.profileId}&with_user=1`, who: "member" },
    { name: "chats.php", path: "/api/chats.php", who: "member" },
    { name: "chats.php?conversation= (with_user=1)", path: `/api/chats.php?conversation=${ids.conversationId}&with_user=1`, who: "member" },
    { name: "chat.php?conversation=", path: `/api/chat.php?conversation=${ids.conversationId}`, who: "member" },
    { name: "likes.php (all three lists)", path: "/api/likes.php", who: "member" },
    { name: "likes.php?tab=received (as /likes/received asks, with_user=1)", path: "/api/likes.php?tab=received&with_user=1", who: "member" },
    { name: "auto-like.php", path: "/api/auto-like.php", who: "member" },
    { name: "discovery.php swipe", path: "/api/discovery.php?game=swipe", who: "member" },
    { name: "discovery.php match_finder", path: "/api/discovery.php?game=match_finder", who: "member" },
    { name: "signup-matches.php", path: "/api/signup-matches.php", who: "member" },
    { name: "teasers.php", path: "/api/teasers.php", who: "member" },
    { name: "teasers.php?id=&gender=female", path: `/api/teasers.php?id=${m.profileId}&gender=female`, who: "member" },
    { name: "packages.php (with_user=1)", path: "/api/packages.php?with_user=1", who: "member" },
    { name: "discountcode.php?welcome=true", path: "/api/discountcode.php?welcome=true", who: "member" },
    { name: "transactions.php (with_user=1)", path: "/api/transactions.php?with_user=1", who: "member" },
    optional("transaction.php?id=", ids.paymentId, (id) => `/api/transaction.php?id=${id}`, "member", "the premium member has no payment"),
    optional("payment.php?id=", ids.paymentId, (id) => `/api/payment.php?id=${id}`, "member", "the premium member has no payment"),
    { name: "notifications.php", path: "/api/notifications.php", who: "member" },
    { name: "photos.php", path: "/api/photos.php", who: "member" },
    { name: "blocks.php", path: "/api/blocks.php", who: "member" },
    { name: "dismissals.php", path: "/api/dismissals.php", who: "member" },
    { name: "dataexport.php", path: "/api/dataexport.php", who: "member" },
    { name: "gifs.php?q=hello", path: "/api/gifs.php?q=hello", who: "member" },
    { name: "geocode.php", path: "/api/geocode.php?lat=52.37&lon=4.89", who: "member" },
    { name: "settings.php", path: "/api/settings.php?domain=localhost", who: "member" },
    { name: "companyinfo.php", path: "/api/companyinfo.php", who: "member" },
    { name: "interests.php", path: "/api/interests.php", who: "member" },
    { name: "regions.php?country=NL", path: "/api/regions.php?country=NL", who: "member" },
    { name: "staff me.php", path: "/api/staff/me.php", who: "admin" },
    { name: "staff dashboard.php", path: "/api/staff/dashboard.php", who: "admin" },
    { name: "staff queues.php", path: "/api/staff/queues.php", who: "admin" },
    { name: "staff members.php?q=<e-mail>", path: `/api/staff/members.php?q=${encodeURIComponent(m.email)}`, who: "admin" },
    { name: "staff members.php?q=<first name>", path: `/api/staff/members.php?q=${encodeURIComponent(m.firstName)}`, who: "admin" },
    { name: "staff members.php?q=<user id>", path: `/api/staff/members.php?q=${m.userId}`, who: "admin" },
    { name: "staff member.php?id=", path: `/api/staff/member.php?id=${m.userId}`, who: "admin" },
    { name: "staff reports.php", path: "/api/staff/reports.php", who: "admin" },
    { name: "staff reports.php?status=resolved", path: "/api/staff/reports.php?status=resolved", who: "admin" },
    optional("staff report.php?id=", ids.reportId, (id) => `/api/staff/report.php?id=${id}`, "admin", "no report in the database"),
    { name: "staff photos.php", path: "/api/staff/photos.php", who: "admin" },
    { name: "staff profiles.php", path: "/api/staff/profiles.php", who: "admin" },
    optional("staff profile.php?id=", ids.fictionalProfileId, (id) => `/api/staff/profile.php?id=${id}`, "admin", "no site-run profile"),
    { name: "staff audit.php", path: "/api/staff/audit.php", who: "admin" },
    { name: "staff operators.php", path: "/api/staff/operators.php", who: "admin" },
    { name: "staff operators.php?days=90", path: "/api/staff/operators.php?days=90", who: "admin" },
    { name: "staff analytics.php 30 days, all sites", path: "/api/staff/analytics.php", who: "admin" },
    { name: "staff analytics.php today, one site", path: `/api/staff/analytics.php?site=${ids.siteId}&period=today`, who: "admin" },
    { name: "staff analytics.php 90 days, one site", path: `/api/staff/analytics.php?site=${ids.siteId}&period=90`, who: "admin" },
    { name: "staff analytics.php 366 days custom, all sites", path: "/api/staff/analytics.php?period=custom&from=2025-12-07&to=2026-12-07", who: "admin" },
    { name: "staff accounts.php", path: "/api/staff/accounts.php", who: "admin" },
    { name: "staff sites.php", path: "/api/staff/sites.php", who: "admin" },
    { name: "staff site.php?id=", path: `/api/staff/site.php?id=${ids.siteId}`, who: "admin" },
    { name: "staff packages.php", path: "/api/staff/packages.php", who: "admin" },
    { name: "staff discount-codes.php", path: "/api/staff/discount-codes.php", who: "admin" },
    { name: "staff invitations.php", path: "/api/staff/invitations.php", who: "admin" },
    { name: "staff inbox.php (operator)", path: "/api/staff/inbox.php", who: "operator" },
    { name: "staff queues.php (operator)", path: "/api/staff/queues.php", who: "operator" },
    { name: "staff desk.php (operator)", path: "/api/staff/desk.php", who: "operator" },
    { name: "staff held-messages.php", path: "/api/staff/held-messages.php", who: "admin" },
    { name: "staff saved-replies.php?site=1", path: "/api/staff/saved-replies.php?site=1", who: "admin" },
    optional("staff inbox-conversation.php?id= (operator)", ids.inboxConversationId, (id) => `/api/staff/inbox-conversation.php?id=${id}`, "operator", "the operator's inbox is empty"),
  ];
}

/** GET routes the table does not time, and why; anything else the api routes must be in timedGets. */
export const untimedGets: Record<string, string> = {
  "/api/events.php": "event stream (text/event-stream), open until the client leaves; the main bench's live stream rows measure it",
  "/api/staff/events.php": "the staff console's event stream (text/event-stream), open until the client leaves",
  "/api/chat-image.php": "an image file download (a chat attachment), not a query",
  "/api/gif.php": "a GIF file download (catalogue or the provider's cached media)",
  "/api/dataexport-file.php": "a data export's zip download by a one-shot token",
  "/api/staff/inbox-image.php": "an image file of a conversation for the operator (a member's photo message), not a query",
  "/api/sandbox-checkout.php": "the sandbox provider's checkout page by a payment's one-shot token",
  "/api/unsubscribe.php": "a one-shot signed link from a notification mail",
  "/api/staff/setup.php": "a staff account's one-shot set-up link",
  "/api/directdebit.php": "one direct debit request by id, after a mandate form; the demo data has none",
  "/api/logout.php": "ends the session (a write behind a GET)",
  "/api/openapi.json": "a static document, the same at every size",
  "/api/payment-notify.php": "routed for every method: the payment providers' signed notifications, POSTed",
  "/healthz": "the health check, no member data",
  "/metrics": "Prometheus' scrape, behind METRICS_TOKEN",
};

/** GET routes of the api (apiEndpoints()) neither timed nor given a reason above. */
export function uncoveredGets(routes: Endpoint[], timed: string[]): string[] {
  const timedPaths = new Set(timed.map((p) => p.split("?")[0]));
  const gets = new Set(routes.filter((r) => r.method === "GET" || r.method === "ALL").map((r) => r.path));
  return [...gets].filter((p) => !timedPaths.has(p) && !(p in untimedGets)).sort();
}
