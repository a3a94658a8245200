import { Router } from "express";
import { openApiDocument } from "../openapi/document";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

/**
 * GET /api/openapi.json: the api's OpenAPI document (docs/api.md), generated from the contract once per process and
 * kept as text; clients and caches may keep it for five minutes.
 */
export function openApiRoutes(): Router {
  const router = Router();
  let body: string | undefined;
  on(router, endpoints.openApiDocument, (_req, res) => {
    body ??= JSON.stringify(openApiDocument());
    res.set("Cache-Control", "public, max-age=300").type("application/json").send(body);
  });
  return router;
}
