import { boolean, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { CamTiles } from "#contract/cam";
import { contactFilterModes, siteSettingDefaults } from "#contract/site-settings";

/** Sites and what belongs to a site: its company and its interests. api/db/schema.ts gathers every domain's tables for drizzle and the api. */

export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  address: text("address").notNull(),
  kvk: text("kvk").notNull(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  tradenames: jsonb("tradenames").$type<string[]>().notNull().default([]),
  vatNumbers: jsonb("vat_numbers").$type<string[]>().notNull().default([]),
  supportPhone: text("support_phone").notNull(),
  deleteDiscount: integer("delete_discount"),
  added: timestamp("added", { withTimezone: true }).notNull().defaultNow(),
});

export const sites = pgTable(
  "sites",
  {
    id: serial("id").primaryKey(),
    domain: text("domain").notNull(),
    isDefault: boolean("is_default").notNull().default(siteSettingDefaults.is_default),
    name: text("name").notNull(),
    domainLanguage: text("domain_language"),
    cdnPrefix: text("cdn_prefix").notNull().default(siteSettingDefaults.cdn_prefix),
    niche: integer("niche").notNull().default(siteSettingDefaults.niche),
    indexTitle: text("index_title").notNull(),
    description: text("description").notNull(),
    countries: jsonb("countries").$type<string[]>().notNull().default(siteSettingDefaults.countries),
    signups: text("signups", { enum: ["all", "with_trafficsource", "other"] }).notNull().default(siteSettingDefaults.signups),
    loggedOutSearch: boolean("logged_out_search").notNull().default(siteSettingDefaults.logged_out_search),
    loggedOutSearchTrafficsource: boolean("logged_out_search_trafficsource").notNull().default(siteSettingDefaults.logged_out_search_trafficsource),
    enableSiteEntryPopup: boolean("enable_site_entry_popup").notNull().default(siteSettingDefaults.enable_site_entry_popup),
    /** docs/product.md §1 live-cam promotion tiles (contract/cam.ts); null: none on this site. */
    camTiles: jsonb("cam_tiles").$type<CamTiles>(),
    /** docs/product.md §3 Payment transaction costs, per payment method: a fixed part (minor units of the payment's currency) and a percentage of the price. */
    transactionCosts: jsonb("transaction_costs").$type<Record<string, { fixed: number; percent: number }>>().notNull().default({}),
    minimumMessageCosts: jsonb("minimum_message_costs").$type<Record<string, { costs: number; currency: string }>>().notNull().default({}),
    /** VAPID key pair (base64url, uncompressed P-256 point / 32-byte scalar) for web push; null: no push on this site. */
    pushPublicKey: text("push_public_key"),
    pushPrivateKey: text("push_private_key"),
    supportEmail: text("support_email").notNull(),
    /** The site's own support phone; null: the company's (settings support_phone). */
    supportPhone: text("support_phone"),
    visibleProfileFields: jsonb("visible_profile_fields").$type<string[]>().notNull().default(siteSettingDefaults.visible_profile_fields),
    visibleProfileNotes: jsonb("visible_profile_notes").$type<string[]>().notNull().default(siteSettingDefaults.visible_profile_notes),
    messageCredits: integer("message_credits").notNull().default(siteSettingDefaults.message_credits),
    signupCredits: integer("signup_credits").notNull().default(siteSettingDefaults.signup_credits),
    photoCredits: integer("photo_credits").notNull().default(siteSettingDefaults.photo_credits),
    giftCredits: integer("gift_credits").notNull().default(siteSettingDefaults.gift_credits),
    messageLength: integer("message_length").notNull().default(siteSettingDefaults.message_length),
    searchFields: jsonb("search_fields").$type<string[]>().notNull().default(siteSettingDefaults.search_fields),
    memberResell: boolean("member_resell").notNull().default(siteSettingDefaults.member_resell),
    fictionalIcon: text("fictional_icon").notNull().default(siteSettingDefaults.fictional_icon),
    fictionalWarning: text("fictional_warning").notNull().default(siteSettingDefaults.fictional_warning),
    fictionalSingular: text("fictional_singular").notNull().default(siteSettingDefaults.fictional_singular),
    fictionalPlural: text("fictional_plural").notNull().default(siteSettingDefaults.fictional_plural),
    refundDays: integer("refund_days").notNull().default(siteSettingDefaults.refund_days),
    /** docs/product.md §9 welcome discount: how long after signup a member's first purchase gets it; 0: no welcome discount. */
    welcomeDiscountHours: integer("welcome_discount_hours").notNull().default(siteSettingDefaults.welcome_discount_hours),
    /** Minimum age at signup; docs/product.md §5 names min_age a parameter, 18 unless the site sets more. */
    minAge: integer("min_age").notNull().default(siteSettingDefaults.min_age),
    /** Whether the signup form asks for a first message (signup_message). */
    askSignupMessage: boolean("ask_signup_message").notNull().default(siteSettingDefaults.ask_signup_message),
    deleteDiscount: integer("delete_discount"),
    /** docs/staff.md moderation modes: "pre", a new photo stays pending until a moderator approves it; "post", live at once and queued. */
    photoModeration: text("photo_moderation", { enum: ["pre", "post"] }).notNull().default(siteSettingDefaults.photo_moderation),
    /** docs/staff.md, contact details in chat: what a member's message with contact details gets (contract/site-settings.ts). */
    contactFilter: text("contact_filter", { enum: contactFilterModes }).notNull().default(siteSettingDefaults.contact_filter),
    mailName: text("mail_name").notNull(),
    /** The site's time zone (IANA name): a day of the analytics is the site's day (docs/staff.md, Analytics). */
    timeZone: text("time_zone").notNull().default("UTC"),
    /** When staff last changed the site (docs/staff.md, the catalogue): an edit made on an older copy is refused. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
  },
  (t) => [uniqueIndex("sites_domain_idx").on(t.domain)],
);

/** A row of one site: `site_id`, referencing sites. */
export const siteRef = () => integer("site_id").notNull().references(() => sites.id);

export const interests = pgTable("interests", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
});
