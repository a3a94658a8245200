import { OkResponse, VisitRequest } from "#contract/account";
import { CamClickRequest, CamClickResponse } from "#contract/cam-click";
import { ComplaintRequest, ComplaintResponse } from "#contract/complaints";
import { Health } from "#contract/health";
import { TeasersQuery, TeasersResponse } from "#contract/members";
import { MailEventsRequest, MailEventsResponse } from "#contract/notifications";
import { CompanyInfo, InterestsResponse, RegionsQuery, RegionsResponse, Settings, SettingsQuery } from "#contract/settings";
import { json, media, type OperationGroup } from "./operation";

/** The site's settings and what visitors of its public pages call (api/http/settings.ts, cam.ts, attribution.ts, teasers.ts, complaints.ts). */
export const siteOperations: OperationGroup = {
  tag: "site",
  description: "The site a request is for (chosen by its host), and what its public pages ask.",
  operations: [
    {
      method: "get",
      path: "/healthz",
      summary: "Health check for the load balancer",
      caller: "anyone",
      bare: true,
      answers: { 200: json(Health, "the api and its database answer"), 503: json(Health, "the database does not answer") },
    },
    {
      method: "get",
      path: "/api/openapi.json",
      summary: "This document",
      caller: "anyone",
      answers: { 200: media("the OpenAPI 3.1 document of the api", "application/json") },
    },
    {
      method: "get",
      path: "/api/settings.php",
      summary: "The site's settings, the visitor's country and the company behind the site",
      description: "docs/product.md §3 Settings. `domain` picks another site than the host's (web caches the answer per domain).",
      caller: "anyone",
      query: SettingsQuery,
      answers: { 200: json(Settings, "the settings") },
    },
    { method: "get", path: "/api/companyinfo.php", summary: "The company behind the site", caller: "anyone", answers: { 200: json(CompanyInfo, "the company") } },
    { method: "get", path: "/api/interests.php", summary: "The interests a profile can choose from", caller: "anyone", answers: { 200: json(InterestsResponse, "the interests") } },
    {
      method: "get",
      path: "/api/regions.php",
      summary: "The regions of a country (province, state, canton, ...)",
      caller: "anyone",
      query: RegionsQuery,
      answers: { 200: json(RegionsResponse, "the country's regions") },
    },
    {
      method: "post",
      path: "/api/cam-click.php",
      summary: "Counts a click on a live-cam tile and answers the partner's address",
      caller: "anyone",
      body: CamClickRequest,
      answers: { 200: json(CamClickResponse, "where the tile leads") },
      errors: ["not_found", "too_many_requests"],
    },
    {
      method: "post",
      path: "/api/visit.php",
      summary: "Records an entry URL's tracking values (funnel attribution)",
      caller: "anyone",
      body: VisitRequest,
      answers: { 200: json(OkResponse, "counted") },
      errors: ["too_many_requests"],
    },
    {
      method: "get",
      path: "/api/teasers.php",
      summary: "Members that member landings and landers show visitors",
      caller: "anyone",
      query: TeasersQuery,
      answers: { 200: json(TeasersResponse, "the funnel's member and others with a photo") },
      errors: ["not_found", "too_many_requests"],
    },
    {
      method: "post",
      path: "/api/complaints.php",
      summary: "Files a complaint about content; it is mailed to the site's support address",
      caller: "anyone",
      body: ComplaintRequest,
      answers: { 201: json(ComplaintResponse, "stored, with its reference number") },
      errors: ["too_many_requests"],
    },
    {
      method: "post",
      path: "/api/mail-events.php",
      summary: "The mail provider reports hard bounces and spam complaints",
      description: "docs/notifications.md. Answers 404 when MAIL_EVENTS_SECRET is not set (the endpoint does not exist for the deployment).",
      caller: "mailProvider",
      body: MailEventsRequest,
      answers: { 200: json(MailEventsResponse, "how many events were applied") },
      errors: ["not_found", "secret_required", "secret_wrong", "too_many_requests"],
    },
  ],
};
