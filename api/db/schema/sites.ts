import { boolean, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { CamTiles } from "#contract/cam";

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
    isDefault: boolean("is_default").notNull().default(false),
    name: text("name").notNull(),
    domainLanguage: text("domain_language"),
    cdnPrefix: text("cdn_prefix").notNull().default("/uploads/"),
    niche: integer("niche").notNull().default(1),
    indexTitle: text("index_title").notNull(),
    description: text("description").notNull(),
    countries: jsonb("countries").$type<string[]>().notNull().default([]),
    signups: text("signups", { enum: ["all", "with_trafficsource", "other"] }).notNull().default("all"),
    loggedOutSearch: boolean("logged_out_search").notNull().default(false),
    loggedOutSearchTrafficsource: boolean("logged_out_search_trafficsource").notNull().default(false),
    enableSiteEntryPopup: boolean("enable_site_entry_popup").notNull().default(true),
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
    visibleProfileFields: jsonb("visible_profile_fields").$type<string[]>().notNull().default([]),
    visibleProfileNotes: jsonb("visible_profile_notes").$type<string[]>().notNull().default([]),
    messageCredits: integer("message_credits").notNull().default(10),
    signupCredits: integer("signup_credits").notNull().default(20),
    photoCredits: integer("photo_credits").notNull().default(5),
    giftCredits: integer("gift_credits").notNull().default(25),
    messageLength: integer("message_length").notNull().default(1000),
    searchFields: jsonb("search_fields").$type<string[]>().notNull().default([]),
    memberResell: boolean("member_resell").notNull().default(false),
    fictionalIcon: text("fictional_icon").notNull().default(""),
    fictionalWarning: text("fictional_warning").notNull().default(""),
    fictionalSingular: text("fictional_singular").notNull().default(""),
    fictionalPlural: text("fictional_plural").notNull().default(""),
    refundDays: integer("refund_days").notNull().default(14),
    /** docs/product.md §9 welcome discount: how long after signup a member's first purchase gets it; 0: no welcome discount. */
    welcomeDiscountHours: integer("welcome_discount_hours").notNull().default(72),
    /** Minimum age at signup; docs/product.md §5 names min_age a parameter, 18 unless the site sets more. */
    minAge: integer("min_age").notNull().default(18),
    /** Whether the signup form asks for a first message (signup_message). */
    askSignupMessage: boolean("ask_signup_message").notNull().default(false),
    deleteDiscount: integer("delete_discount"),
    /** docs/staff.md moderation modes: "pre", a new photo stays pending until a moderator approves it; "post", live at once and queued. */
    photoModeration: text("photo_moderation", { enum: ["pre", "post"] }).notNull().default("post"),
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
