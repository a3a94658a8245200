import { Router } from "express";
import { openApiDocument } from "../openapi/document";

/**
 * GET /api/openapi.json: the api's OpenAPI document (docs/api.md), generated from the contract once per process and
 * kept as text; clients and caches may keep it for five minutes.
 */
export function openApiRoutes(): Router {
  const router = Router();
  let body: string | undefined;
  router.get("/api/openapi.json", (_req, res) => {
    body ??= JSON.stringify(openApiDocument());
    res.set("Cache-Control", "public, max-age=300").type("application/json").send(body);
  });
  return router;
}
