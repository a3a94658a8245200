import { Router } from "express";
import type { Settings } from "#contract/settings";
import { RegionsQuery, SettingsQuery } from "#contract/settings";
import type { Site } from "../domain/sites";
import { countryOfIp } from "../services/geo";
import { regionsOf } from "../services/regions";
import { parseInput } from "./respond";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

export function settingsRoutes(): Router {
  const router = Router();

  on(router, endpoints.settings, (req, res) => {
    if (!parseInput(res, SettingsQuery, req.query)) return;
    const { site, company, interests } = res.locals;
    const geoipCountry = countryOfIp(res.locals.clientIp);
    const body: Settings = {
      ...siteFields(site),
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

  on(router, endpoints.companyInfo, (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json(res.locals.company);
  });

  on(router, endpoints.interests, (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json({ interests: res.locals.interests });
  });

  on(router, endpoints.regions, (req, res) => {
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

function siteFields(site: Site): Omit<Settings, "geoip_country" | "geoip_selected_country" | "interests" | "company" | "support_phone" | "push_public_key"> {
  return {
    name: site.name,
    domain: site.domain,
    domain_language: site.domainLanguage,
    cdn_prefix: site.cdnPrefix,
    niche: site.niche,
    index_title: site.indexTitle,
    description: site.description,
    countries: site.countries,
    signups: site.signups,
    logged_out_search: site.loggedOutSearch,
    logged_out_search_trafficsource: site.loggedOutSearchTrafficsource,
    enable_site_entry_popup: site.enableSiteEntryPopup,
    minimum_message_costs: site.minimumMessageCosts,
    support_email: site.supportEmail,
    visible_profile_fields: site.visibleProfileFields,
    visible_profile_notes: site.visibleProfileNotes,
    message_credits: site.messageCredits,
    signup_credits: site.signupCredits,
    photo_credits: site.photoCredits,
    gift_credits: site.giftCredits,
    message_length: site.messageLength,
    search_fields: site.searchFields,
    member_resell: site.memberResell,
    fictional_icon: site.fictionalIcon,
    fictional_warning: site.fictionalWarning,
    min_age: site.minAge,
    ask_signup_message: site.askSignupMessage,
    fictional_singular: site.fictionalSingular,
    fictional_plural: site.fictionalPlural,
    refund_days: site.refundDays,
    delete_discount: site.deleteDiscount,
    mail_name: site.mailName,
    company_id: site.companyId,
    cam_tiles: site.camTiles,
  };
}
