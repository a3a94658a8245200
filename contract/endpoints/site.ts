import { browserPaths } from "./paths";
import { OkResponse, VisitRequest } from "../account";
import { CamClickRequest, CamClickResponse } from "../cam-click";
import { ComplaintRequest, ComplaintResponse } from "../complaints";
import { Health } from "../health";
import { TeasersQuery, TeasersResponse } from "../members";
import { MailEventsRequest, MailEventsResponse } from "../notifications";
import { CompanyInfo, InterestsResponse, RegionsQuery, RegionsResponse, Settings, SettingsQuery } from "../settings";
import { json, media, endpointGroup } from "./endpoint";

/** The site's settings and what visitors of its public pages call (api/http/settings.ts, cam.ts, attribution.ts, teasers.ts, complaints.ts). */
export const site = endpointGroup("site", "The site a request is for (chosen by its host), and what its public pages ask.", {
  health: {
    method: "get",
    path: "/healthz",
    summary: "Health check for the load balancer",
    caller: "anyone",
    bare: true,
    answers: {
      200: json(Health, "the api and its database answer"),
      503: json(Health, "the database does not answer"),
    },
  },
  openApiDocument: {
    method: "get",
    path: "/api/openapi.json",
    summary: "This document",
    caller: "anyone",
    answers: {
      200: media("the OpenAPI 3.1 document of the api", "application/json"),
    },
  },
  settings: {
    method: "get",
    path: "/api/settings.php",
    summary: "The site's settings, the visitor's country and the company behind the site",
    description: "docs/product.md §3 Settings. `domain` picks another site than the host's (web caches the answer per domain).",
    caller: "anyone",
    query: SettingsQuery,
    answers: { 200: json(Settings, "the settings") },
  },
  companyInfo: {
    method: "get",
    path: "/api/companyinfo.php",
    summary: "The company behind the site",
    caller: "anyone",
    answers: { 200: json(CompanyInfo, "the company") },
  },
  interests: {
    method: "get",
    path: "/api/interests.php",
    summary: "The interests a profile can choose from",
    caller: "anyone",
    answers: { 200: json(InterestsResponse, "the interests") },
  },
  regions: {
    method: "get",
    path: browserPaths.regions,
    summary: "The regions of a country (province, state, canton, ...)",
    caller: "anyone",
    query: RegionsQuery,
    answers: { 200: json(RegionsResponse, "the country's regions") },
  },
  camClick: {
    method: "post",
    path: "/api/cam-click.php",
    summary: "Counts a click on a live-cam tile and answers the partner's address",
    caller: "anyone",
    body: CamClickRequest,
    answers: { 200: json(CamClickResponse, "where the tile leads") },
    errors: ["not_found", "too_many_requests"],
  },
  recordVisit: {
    method: "post",
    path: "/api/visit.php",
    summary: "Records an entry URL's tracking values or a landing page's first view (funnel attribution, analytics)",
    caller: "anyone",
    body: VisitRequest,
    answers: { 200: json(OkResponse, "counted") },
    errors: ["too_many_requests"],
  },
  teasers: {
    method: "get",
    path: "/api/teasers.php",
    summary: "Members that member landings and landers show visitors",
    caller: "anyone",
    query: TeasersQuery,
    answers: {
      200: json(TeasersResponse, "the funnel's member and others with a photo"),
    },
    errors: ["not_found", "too_many_requests"],
  },
  sendComplaint: {
    method: "post",
    path: "/api/complaints.php",
    summary: "Files a complaint about content; it is mailed to the site's support address",
    caller: "anyone",
    body: ComplaintRequest,
    answers: {
      201: json(ComplaintResponse, "stored, with its reference number"),
    },
    errors: ["too_many_requests"],
  },
  mailEvents: {
    method: "post",
    path: "/api/mail-events.php",
    summary: "The mail provider reports hard bounces and spam complaints",
    description: "docs/notifications.md. Answers 404 when MAIL_EVENTS_SECRET is not set (the endpoint does not exist for the deployment).",
    caller: "mailProvider",
    body: MailEventsRequest,
    answers: {
      200: json(MailEventsResponse, "how many events were applied"),
    },
    errors: ["not_found", "secret_required", "secret_wrong", "too_many_requests"],
  },
});
