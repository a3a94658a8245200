import { Router } from "express";
import { GeocodeQuery, type GeocodeResponse } from "#contract/profile";
import { reverseGeocode } from "../services/geocode";
import { handle, parseInput } from "./respond";

/** GET /api/geocode.php?lat=&lon=: where the coordinates are (the location block of /profile). Offline, same answer for everyone. */
export function geocodeRoutes(): Router {
  const router = Router();
  router.get(
    "/api/geocode.php",
    handle(async (req, res) => {
      const query = parseInput(res, GeocodeQuery, req.query);
      if (!query) return;
      const body: GeocodeResponse = { result: reverseGeocode(query.lat, query.lon) ?? false };
      res.set("Cache-Control", "public, max-age=86400").json(body);
    }),
  );
  return router;
}
