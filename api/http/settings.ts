import { Router } from "express";
import type { Settings } from "#contract/settings";
import { RegionsQuery, SettingsQuery } from "#contract/settings";
import { publicSiteSettingNames } from "#contract/site-settings";
import { pickSettings } from "../domain/site-settings";
import { countryOfIp } from "../services/geo";
import { regionsOf } from "../services/regions";
import { parseInput } from "./respond";

export function settingsRoutes(): Router {
  const router = Router();

  router.get("/api/settings.php", (req, res) => {
    if (!parseInput(res, SettingsQuery, req.query)) return;
    const { site, company, interests } = res.locals;
    const geoipCountry = countryOfIp(res.locals.clientIp);
    const body: Settings = {
      ...pickSettings(site, publicSiteSettingNames),
      minimum_message_costs: site.minimumMessageCosts,
      // The key browsers subscribe with is the one pushes are signed with (api/jobs/push.ts): the site's
      // own, else the deployment's when api/main.ts lets sites without keys push (PUSH_KEYLESS_SITES).
      push_public_key: site.pushPublicKey && site.pushPrivateKey ? site.pushPublicKey : keylessSitesPushKey(req.app.locals),
      geoip_country: geoipCountry,
      geoip_selected_country: geoipCountry && site.countries.includes(geoipCountry) ? geoipCountry : (site.countries[0] ?? null),
      support_phone: site.supportPhone ?? company.support_phone,
      interests,
      company,
    };
    // The body depends on the client's IP (geoip_country): no shared caches.
    res.set("Cache-Control", "private, no-store").json(body);
  });

  router.get("/api/companyinfo.php", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json(res.locals.company);
  });

  router.get("/api/interests.php", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json({ interests: res.locals.interests });
  });

  router.get("/api/regions.php", (req, res) => {
    const query = parseInput(res, RegionsQuery, req.query);
    if (!query) return;
    res.set("Cache-Control", "public, max-age=86400").json({ country: query.country, regions: regionsOf(query.country) });
  });

  return router;
}

/** The deployment's VAPID public key for sites without a pair of their own, when api/main.ts set one; else null (no push). */
function keylessSitesPushKey(locals: Record<string, unknown>): string | null {
  return typeof locals.keylessSitesPushKey === "string" ? locals.keylessSitesPushKey : null;
}
