import { z } from "zod";
import { PublicSiteSettings, SiteDomain } from "./site-settings";

export { CamTilesSchema, Signups, SiteDomain } from "./site-settings";

export { siteNiches as niches } from "./site-fields";
/** docs/product.md §1: slug prefix per niche (niche 1 has none). */
export const nichePrefix: Record<number, string> = { 1: "", 2: "she", 3: "bdsm", 4: "bbw", 5: "gilf", 6: "milf", 7: "gay" };

export const MessageCost = z.object({ costs: z.number(), currency: z.string() });

export const CompanyInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  kvk: z.string(),
  city: z.string(),
  country: z.string(),
  tradenames: z.array(z.string()),
  vat_numbers: z.array(z.string()),
  support_phone: z.string(),
  delete_discount: z.number().nullable(),
  added: z.string(),
});
export type CompanyInfo = z.infer<typeof CompanyInfo>;

export const Interest = z.object({ id: z.number().int(), key: z.string() });
export type Interest = z.infer<typeof Interest>;

/** GET /api/settings.php: docs/product.md §3, "Settings (from the server)": the public settings (contract/site-settings.ts) and what each request derives. */
export const Settings = PublicSiteSettings.extend({
  geoip_country: z.string().nullable(),
  geoip_selected_country: z.string().nullable(),
  minimum_message_costs: z.record(z.string(), MessageCost),
  push_public_key: z.string().nullable(),
  /** The site's own, else its company's. */
  support_phone: z.string(),
  interests: z.array(Interest),
  company: CompanyInfo,
});
export type Settings = z.infer<typeof Settings>;

export const SettingsQuery = z.object({ domain: SiteDomain.optional() });

export const Region = z.object({ code: z.string(), name: z.string() });
export const RegionsResponse = z.object({ country: z.string(), regions: z.array(Region) });
export const RegionsQuery = z.object({ country: z.string().trim().regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166 alpha-2 code").transform((c) => c.toUpperCase()) });
export const InterestsResponse = z.object({ interests: z.array(Interest) });
