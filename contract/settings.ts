import { z } from "zod";
import { text } from "./input";
import { camLinkValues, type CamTiles } from "./cam";
import { isHttpsUrlOnItsHost } from "./host";

export { siteNiches as niches } from "./site-fields";
/** docs/product.md §1: slug prefix per niche (niche 1 has none). */
export const nichePrefix: Record<number, string> = { 1: "", 2: "she", 3: "bdsm", 4: "bbw", 5: "gilf", 6: "milf", 7: "gay" };

export const Signups = z.enum(["all", "with_trafficsource", "other"]);

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

/** The live-cam tiles' settings (contract/cam.ts CamTiles): an https link template, the tile's texts and where tiles go. */
export const CamTilesSchema = z.object({
  link: z
    .string()
    .trim()
    .max(500)
    .refine(
      (link) => isHttpsUrlOnItsHost(link, camLinkValues),
      "The partner's https:// address, with {network}, {ref}, {sub1}, {sub2} or {sub3} only in its path or query (the host is fixed).",
    ),
  title: z.string().trim().min(1, "A tile needs a title.").max(60),
  text: z.string().trim().max(160),
  cta: z.string().trim().min(1, "A tile needs a button text.").max(40),
  first: z.number().int().min(0).max(50),
  every: z.number().int().min(1).max(50),
}) satisfies z.ZodType<CamTiles>;

/** GET /api/settings.php: docs/product.md §3, "Settings (from the server)". */
export const Settings = z.object({
  name: z.string(),
  domain: z.string(),
  domain_language: z.string().nullable(),
  cdn_prefix: z.string(),
  niche: z.number().int().min(1).max(7),
  index_title: z.string(),
  description: z.string(),
  countries: z.array(z.string()),
  signups: Signups,
  logged_out_search: z.boolean(),
  logged_out_search_trafficsource: z.boolean(),
  enable_site_entry_popup: z.boolean(),
  geoip_country: z.string().nullable(),
  geoip_selected_country: z.string().nullable(),
  minimum_message_costs: z.record(z.string(), MessageCost),
  push_public_key: z.string().nullable(),
  support_phone: z.string(),
  support_email: z.string(),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.array(z.string()),
  message_credits: z.number().int(),
  signup_credits: z.number().int(),
  photo_credits: z.number().int(),
  gift_credits: z.number().int(),
  message_length: z.number().int(),
  search_fields: z.array(z.string()),
  interests: z.array(Interest),
  member_resell: z.boolean(),
  fictional_icon: z.string(),
  fictional_warning: z.string(),
  fictional_singular: z.string(),
  fictional_plural: z.string(),
  refund_days: z.number().int(),
  /** Minimum age at signup (docs/product.md §5: min_age is a parameter; 18 unless the site sets more). */
  min_age: z.number().int().min(18),
  /** Whether the signup form asks for a first message (signup_message). */
  ask_signup_message: z.boolean(),
  delete_discount: z.number().nullable(),
  mail_name: z.string(),
  company_id: z.number().int(),
  company: CompanyInfo,
  /** docs/product.md §1 live-cam promotion tiles (contract/cam.ts); null: none on this site. */
  cam_tiles: CamTilesSchema.nullable(),
});
export type Settings = z.infer<typeof Settings>;

/** The host name of a site (as web's Host header gives it, with or without a port). */
export const SiteDomain = text(253, { trim: true }).toLowerCase();
export const SettingsQuery = z.object({ domain: SiteDomain.optional() });

export const Region = z.object({ code: z.string(), name: z.string() });
export const RegionsResponse = z.object({ country: z.string(), regions: z.array(Region) });
export const RegionsQuery = z.object({ country: z.string().trim().regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166 alpha-2 code").transform((c) => c.toUpperCase()) });
export const InterestsResponse = z.object({ interests: z.array(Interest) });
