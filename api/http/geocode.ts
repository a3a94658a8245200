import { Router } from "express";
import { GeocodeQuery, type GeocodeResponse } from "#contract/profile";
import { reverseGeocode } from "../services/geocode";
import { requireMember } from "./context";
import { handle, parseInput } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

/**
 * GET /api/geocode.php?lat=&lon=: where the coordinates are (the location block of /profile). Offline,
 * the same answer for everyone, but members only: a lookup far from land costs ~0.1 s of CPU.
 */
export function geocodeRoutes(): Router {
  const router = Router();
  on(router, endpoints.geocode,
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, GeocodeQuery, req.query);
      if (!query) return;
      const body: GeocodeResponse = { result: reverseGeocode(query.lat, query.lon) ?? false };
      res.set("Cache-Control", "public, max-age=86400").json(body);
    }),
  );
  return router;
}
