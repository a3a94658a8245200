import { z } from "zod";
import { paymentMethodIds } from "./payment-methods";
import { FormKey, id, queryId } from "./input";
import { siteCountries } from "./locales";
import { Signups, SiteSettingsFields, SiteSettingsRead, siteSettingRules } from "./site-settings";

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
 *   POST /api/staff/packages.php PackageAction -> CatalogueOutcome (contract/staff-catalogue.ts) | validation_failed 400 (a package like it on sale) | not_found 404
 */

const country = z.enum(siteCountries, { message: "Pick one of the countries the product serves." });
/** A money amount as integer minor units (cents). */
const minorUnits = z.number().int().min(1).max(100_000_000);
const PaymentMethodId = z.enum(paymentMethodIds);
export const Currency = z.string().regex(/^[A-Z]{3}$/, "a currency code such as EUR");

/** Every setting staff can edit (contract/site-settings.ts); the api answers validation_failed with a message per field. */
export const SiteSettingsInput = siteSettingRules.reduce((schema, rule) => schema.refine(rule.holds, { message: rule.message, path: [...rule.path] }), SiteSettingsFields);
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
  settings: SiteSettingsRead,
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
  z.object({ action: z.literal("create"), site_id: id, form_key: FormKey, ...PackageFields.shape }),
  z.object({ action: z.literal("update"), id, ...PackageFields.shape }),
  z.object({ action: z.literal("disable"), id }),
  z.object({ action: z.literal("enable"), id }),
]);
export type PackageAction = z.infer<typeof PackageAction>;
