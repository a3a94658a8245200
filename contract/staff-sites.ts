import { z } from "zod";
import { isCdnPrefix } from "./host";
import { paymentMethodIds } from "./payment-methods";
import { Email, id, queryId, text } from "./input";
import { isLocale, siteCountries } from "./locales";
import { CamTilesSchema, niches, SiteDomain, Signups } from "./settings";
import { siteProfileFields, siteSearchFields } from "./site-fields";

/** The time zones a site may have (the analytics' day is the site's day): the IANA names the runtime knows, and UTC. */
export const siteTimeZones: readonly string[] = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
export function isTimeZone(zone: string): boolean {
  return siteTimeZones.includes(zone);
}

/*
 * The catalogue in the console, part 2 (docs/staff.md): sites with every setting of docs/product.md §3
 * "Settings (from the server)", their minimum message costs per country, and their credit packages. Admins only
 * (`catalogue.manage`). A change reaches every api instance at once (a NOTIFY on the site_settings channel) and every
 * web instance within SETTINGS_CACHE_SECONDS.
 *
 *   GET  /api/staff/sites.php              -> SitesResponse
 *   GET  /api/staff/site.php?id=           -> SiteResponse | not_found 404
 *   POST /api/staff/sites.php  SiteAction  -> SiteOutcome | validation_failed 400 (a site changed meanwhile too: on `updated_at`) | not_found 404
 *   GET  /api/staff/packages.php?site_id=  -> PackagesResponse
 *   POST /api/staff/packages.php PackageAction -> { ok } | validation_failed 400 | not_found 404
 */


const country = z.enum(siteCountries, { message: "Pick one of the countries the product serves." });
const credits = z.number().int().min(0).max(100_000);
const label = (max: number) => text(max, { trim: true });
/** A money amount as integer minor units (cents). */
const minorUnits = z.number().int().min(1).max(100_000_000);
const PaymentMethodId = z.enum(paymentMethodIds);
export const Currency = z.string().regex(/^[A-Z]{3}$/, "a currency code such as EUR");

/** Every setting staff can edit; the api answers validation_failed with a message per field. */
const SiteSettingsFields = z.object({
    name: label(100).pipe(z.string().min(1, "A site needs a name.")),
    domain: SiteDomain.pipe(z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, "A host name such as example.com, without www. or a path.")),
    is_default: z.boolean(),
    /** The language of the domain, a tag such as nl or nl-BE (its language one of the 11); null: the visitor's own. */
    domain_language: z
      .string()
      .regex(/^[a-z]{2}(-[A-Z]{2})?$/, "A language tag such as nl or nl-BE.")
      .refine((tag) => isLocale(tag.slice(0, 2)), "The language must be one the product speaks.")
      .nullable(),
    cdn_prefix: label(300).pipe(z.string().refine(isCdnPrefix, "A path on this site such as /uploads/ or an https:// address, ending in /.")),
    niche: z.number().int().min(1).max(niches.length),
    index_title: label(200).pipe(z.string().min(1, "The home page needs a title.")),
    description: label(1000),
    countries: z.array(country).min(1, "A site serves at least one country.").max(siteCountries.length),
    signups: Signups,
    logged_out_search: z.boolean(),
    logged_out_search_trafficsource: z.boolean(),
    enable_site_entry_popup: z.boolean(),
    message_credits: credits,
    signup_credits: credits,
    photo_credits: credits,
    gift_credits: credits,
    message_length: z.number().int().min(20, "At least 20 characters.").max(10_000),
    support_email: Email,
    /** null: the company's support phone. */
    support_phone: label(40)
      .pipe(z.string().regex(/^\+?[0-9 ()-]{6,40}$/, "A phone number such as +31 20 123 4567."))
      .nullable(),
    visible_profile_fields: z.array(z.enum(siteProfileFields)),
    visible_profile_notes: z.array(z.enum(siteProfileFields)),
    search_fields: z.array(z.enum(siteSearchFields)),
    member_resell: z.boolean(),
    fictional_icon: label(20),
    fictional_warning: text(1000, { trim: true, multiline: true }),
    fictional_singular: label(60),
    fictional_plural: label(60),
    refund_days: z.number().int().min(0).max(365),
    welcome_discount_hours: z.number().int().min(0).max(24 * 60),
    min_age: z.number().int().min(18).max(99),
    ask_signup_message: z.boolean(),
    delete_discount: z.number().int().min(1).max(90).nullable(),
    photo_moderation: z.enum(["pre", "post"]),
    mail_name: label(100).pipe(z.string().min(1, "Mails need a sender name.")),
    time_zone: z.string().refine(isTimeZone, "Choose a time zone from the list."),
    company_id: id,
    /** docs/product.md §1 live-cam tiles; null: none. */
    cam_tiles: CamTilesSchema.nullable(),
});
export const SiteSettingsInput = SiteSettingsFields.refine((s) => !s.logged_out_search_trafficsource || s.logged_out_search, {
  message: "Logged-out search for traffic sources only needs logged-out search on.",
  path: ["logged_out_search_trafficsource"],
});
export type SiteSettingsInput = z.infer<typeof SiteSettingsInput>;

export const SiteSummary = z.object({
  id: z.number(),
  name: z.string(),
  domain: z.string(),
  niche: z.number(),
  countries: z.array(z.string()),
  signups: Signups,
  is_default: z.boolean(),
  packages: z.number(),
  updated_at: z.string(),
});
export const Company = z.object({ id: z.number(), name: z.string(), support_phone: z.string() });
export const SitesResponse = z.object({ sites: z.array(SiteSummary), companies: z.array(Company) });
export type SitesResponse = z.infer<typeof SitesResponse>;

export const MessageCostRow = z.object({ country: z.string(), costs: z.number(), currency: z.string() });
export const SiteResponse = z.object({
  id: z.number(),
  /** As stored: rows written before these checks may hold what the form would now refuse, so the answer is read loosely. */
  settings: z.object({
    name: z.string(),
    domain: z.string(),
    is_default: z.boolean(),
    domain_language: z.string().nullable(),
    cdn_prefix: z.string(),
    niche: z.number(),
    index_title: z.string(),
    description: z.string(),
    countries: z.array(z.string()),
    signups: Signups,
    logged_out_search: z.boolean(),
    logged_out_search_trafficsource: z.boolean(),
    enable_site_entry_popup: z.boolean(),
    message_credits: z.number(),
    signup_credits: z.number(),
    photo_credits: z.number(),
    gift_credits: z.number(),
    message_length: z.number(),
    support_email: z.string(),
    support_phone: z.string().nullable(),
    visible_profile_fields: z.array(z.string()),
    visible_profile_notes: z.array(z.string()),
    search_fields: z.array(z.string()),
    member_resell: z.boolean(),
    fictional_icon: z.string(),
    fictional_warning: z.string(),
    fictional_singular: z.string(),
    fictional_plural: z.string(),
    refund_days: z.number(),
    welcome_discount_hours: z.number(),
    min_age: z.number(),
    ask_signup_message: z.boolean(),
    delete_discount: z.number().nullable(),
    photo_moderation: z.enum(["pre", "post"]),
    mail_name: z.string(),
    time_zone: z.string(),
    company_id: z.number(),
    cam_tiles: CamTilesSchema.nullable(),
  }),
  minimum_message_costs: z.array(MessageCostRow),
  transaction_costs: z.array(z.object({ method: z.string(), fixed: z.number(), percent: z.number() })),
  push_public_key: z.string().nullable(),
  updated_at: z.string(),
  companies: z.array(Company),
});
export type SiteResponse = z.infer<typeof SiteResponse>;
export const SiteQuery = z.object({ id: queryId });

export const SiteAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), settings: SiteSettingsInput }),
  /** `updated_at` as read: a site changed since is refused (validation_failed on `updated_at`), nothing is overwritten. */
  z.object({ action: z.literal("update"), id, updated_at: z.iso.datetime({ offset: true }), settings: SiteSettingsInput }),
  /** docs/product.md §3 minimum_message_costs: the least a message costs in a country, in the currency's major unit. */
  z.object({ action: z.literal("message_cost"), id, country, costs: z.number().min(0.01).max(1000).multipleOf(0.01), currency: Currency }),
  z.object({ action: z.literal("message_cost_remove"), id, country }),
  /** docs/product.md §3 transaction costs of a payment method: fixed minor units plus a percentage (two decimals) of the price. */
  z.object({ action: z.literal("transaction_cost"), id, method: PaymentMethodId, fixed: z.number().int().min(0).max(100_000), percent: z.number().min(0).max(50).multipleOf(0.01) }),
  z.object({ action: z.literal("transaction_cost_remove"), id, method: PaymentMethodId }),
  /** A new VAPID key pair for web push (members subscribed under the old key subscribe again), or none (no push). */
  z.object({ action: z.literal("push_keys"), id, keys: z.enum(["generate", "remove"]) }),
]);
export type SiteAction = z.infer<typeof SiteAction>;
export const SiteOutcome = z.object({ ok: z.literal(true), id: z.number() });

export const PackageRow = z.object({
  id: z.number(),
  country: z.string(),
  credits: z.number(),
  amount: z.number(),
  currency: z.string(),
  mark: z.enum(["most_chosen", "best_value"]).nullable(),
  position: z.number(),
  active: z.boolean(),
  /** Payments started with it (a package once bought is disabled, never deleted). */
  payments: z.number(),
});
export type PackageRow = z.infer<typeof PackageRow>;
export const PackagesQuery = z.object({ site_id: queryId.optional() });
export const PackagesResponse = z.object({
  site: z.object({ id: z.number(), name: z.string(), countries: z.array(z.string()) }).nullable(),
  sites: z.array(z.object({ id: z.number(), name: z.string() })),
  packages: z.array(PackageRow),
});
export type PackagesResponse = z.infer<typeof PackagesResponse>;

const PackageFields = z.object({
  country,
  credits: z.number().int().min(1).max(100_000),
  amount: minorUnits,
  currency: Currency,
  mark: z.enum(["most_chosen", "best_value"]).nullable(),
  position: z.number().int().min(0).max(1000),
});
export const PackageAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), site_id: id, ...PackageFields.shape }),
  z.object({ action: z.literal("update"), id, ...PackageFields.shape }),
  z.object({ action: z.literal("disable"), id }),
  z.object({ action: z.literal("enable"), id }),
]);
export type PackageAction = z.infer<typeof PackageAction>;
