import { z } from "zod";
import { camLinkValues, type CamTiles } from "./cam";
import { isCdnPrefix, isHttpsUrlOnItsHost } from "./host";
import { Email, id, text } from "./input";
import { isLocale, siteCountries } from "./locales";
import { siteNiches, siteProfileFields, siteSearchFields } from "./site-fields";

/*
 * A site's settings, declared once: each setting's input check (what staff may save), how it reads back, its default,
 * whether members' GET /api/settings.php shows it, and how the staff console's form shows it. contract/settings.ts and
 * contract/staff-sites.ts build their schemas from it, api/domain/site-settings.ts maps it to and from the `sites`
 * row (the column is the setting's name in camelCase), app/features/staff/site-settings.tsx draws the form from it.
 * A new setting: a line here, its column in api/db/schema/sites.ts (and the migration), its label in
 * locales/en/staff.json under sites.fields.<name>.
 */

export const Signups = z.enum(["all", "with_trafficsource", "other"]);


/** The time zones a site may have: the IANA names the runtime knows, UTC first. */
export const siteTimeZones: readonly string[] = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
export function isTimeZone(zone: string): boolean {
  return siteTimeZones.includes(zone);
}
/** The host name of a site (as web's Host header gives it, with or without a port). */
export const SiteDomain = text(253, { trim: true }).toLowerCase();

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

/** docs/staff.md, contact details in chat: what a member's message with a phone number, address or handle gets. */
export const contactFilterModes = ["off", "mask", "hold"] as const;
export type ContactFilterMode = (typeof contactFilterModes)[number];

/** The parts of the staff form, by section (their titles: locales/en/staff.json sites.sections). */
export const siteSettingSections = ["identity", "audience", "visitors", "credits", "profiles", "fictional", "support", "moderation", "cam"] as const;

/**
 * How the staff form shows a setting. `labels` is where an option's text is, a path under locales/en/staff.json
 * `sites` (without it the option shows its value); `source` names options the page supplies (the companies, the
 * language tags). Text inputs take their length bounds from the input check.
 */
export type SettingForm =
  | { kind: "text"; type?: "text" | "email" | "tel" }
  | { kind: "textarea" }
  | { kind: "number" }
  | { kind: "checkbox" }
  | { kind: "select"; options: readonly (string | number)[]; labels?: string }
  | { kind: "select"; source: "companies" | "languages" }
  | { kind: "choices"; options: readonly string[]; labels?: string }
  | { kind: "cam" };

type Setting<Input extends z.ZodType, Read extends z.ZodType> = {
  /** What staff may save (the api answers validation_failed at `settings.<name>` with its message). */
  input: Input;
  /** How a stored value reads back: loosely, as rows saved before a check was added may not pass it. */
  read: Read;
  /** A new row's value (the column's default in api/db/schema/sites.ts). */
  default: z.infer<Read>;
  /** Shown to members in GET /api/settings.php as it is stored. */
  public: boolean;
  section: (typeof siteSettingSections)[number];
  form: SettingForm;
};

function setting<Input extends z.ZodType, Read extends z.ZodType, Public extends boolean>(declared: Setting<Input, Read> & { public: Public }): Setting<Input, Read> & { public: Public } {
  return declared;
}

const credits = z.number().int().min(0).max(100_000);
const label = (max: number) => text(max, { trim: true });
const country = z.enum(siteCountries, { message: "Pick one of the countries the product serves." });
const int = z.number().int();

/** Every setting of a site, in the order the staff form shows them within their section. */
export const siteSettings = {
  name: setting({ input: label(100).pipe(z.string().min(1, "A site needs a name.")), read: z.string(), default: "", public: true, section: "identity", form: { kind: "text" } }),
  domain: setting({
    input: SiteDomain.pipe(z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, "A host name such as example.com, without www. or a path.")),
    read: z.string(),
    default: "",
    public: true,
    section: "identity",
    form: { kind: "text" },
  }),
  niche: setting({ input: z.number().int().min(1).max(siteNiches.length), read: int, default: 1, public: true, section: "identity", form: { kind: "select", options: siteNiches } }),
  cdn_prefix: setting({
    input: label(300).pipe(z.string().refine(isCdnPrefix, "A path on this site such as /uploads/ or an https:// address, ending in /.")),
    read: z.string(),
    default: "/uploads/",
    public: true,
    section: "identity",
    form: { kind: "text" },
  }),
  index_title: setting({ input: label(200).pipe(z.string().min(1, "The home page needs a title.")), read: z.string(), default: "", public: true, section: "identity", form: { kind: "text" } }),
  mail_name: setting({ input: label(100).pipe(z.string().min(1, "Mails need a sender name.")), read: z.string(), default: "", public: true, section: "identity", form: { kind: "text" } }),
  /** The site's IANA time zone: a day of the analytics is the site's day (docs/staff.md, Analytics). */
  time_zone: setting({ input: z.string().refine(isTimeZone, "Choose a time zone from the list."), read: z.string(), default: "UTC", public: false, section: "identity", form: { kind: "select", options: siteTimeZones } }),
  description: setting({ input: label(1000), read: z.string(), default: "", public: true, section: "identity", form: { kind: "textarea" } }),
  is_default: setting({ input: z.boolean(), read: z.boolean(), default: false, public: false, section: "identity", form: { kind: "checkbox" } }),
  countries: setting({
    input: z.array(country).min(1, "A site serves at least one country.").max(siteCountries.length),
    read: z.array(z.string()),
    default: [],
    public: true,
    section: "audience",
    form: { kind: "choices", options: siteCountries },
  }),
  /** The language of the domain, a tag such as nl or nl-BE (its language one of the 11); null: the visitor's own. */
  domain_language: setting({
    input: z
      .string()
      .regex(/^[a-z]{2}(-[A-Z]{2})?$/, "A language tag such as nl or nl-BE.")
      .refine((tag) => isLocale(tag.slice(0, 2)), "The language must be one the product speaks.")
      .nullable(),
    read: z.string().nullable(),
    default: null,
    public: true,
    section: "audience",
    form: { kind: "select", source: "languages" },
  }),
  signups: setting({ input: Signups, read: Signups, default: "all", public: true, section: "visitors", form: { kind: "select", options: Signups.options, labels: "signups" } }),
  /** Minimum age at signup (docs/product.md §5: min_age is a parameter; 18 unless the site sets more). */
  min_age: setting({ input: z.number().int().min(18).max(99), read: int, default: 18, public: true, section: "visitors", form: { kind: "number" } }),
  logged_out_search: setting({ input: z.boolean(), read: z.boolean(), default: false, public: true, section: "visitors", form: { kind: "checkbox" } }),
  logged_out_search_trafficsource: setting({ input: z.boolean(), read: z.boolean(), default: false, public: true, section: "visitors", form: { kind: "checkbox" } }),
  enable_site_entry_popup: setting({ input: z.boolean(), read: z.boolean(), default: true, public: true, section: "visitors", form: { kind: "checkbox" } }),
  /** Whether the signup form asks for a first message (signup_message). */
  ask_signup_message: setting({ input: z.boolean(), read: z.boolean(), default: false, public: true, section: "visitors", form: { kind: "checkbox" } }),
  message_credits: setting({ input: credits, read: int, default: 10, public: true, section: "credits", form: { kind: "number" } }),
  photo_credits: setting({ input: credits, read: int, default: 5, public: true, section: "credits", form: { kind: "number" } }),
  gift_credits: setting({ input: credits, read: int, default: 25, public: true, section: "credits", form: { kind: "number" } }),
  signup_credits: setting({ input: credits, read: int, default: 20, public: true, section: "credits", form: { kind: "number" } }),
  message_length: setting({ input: z.number().int().min(20, "At least 20 characters.").max(10_000), read: int, default: 1000, public: true, section: "credits", form: { kind: "number" } }),
  visible_profile_fields: setting({
    input: z.array(z.enum(siteProfileFields)),
    read: z.array(z.string()),
    default: [],
    public: true,
    section: "profiles",
    form: { kind: "choices", options: siteProfileFields, labels: "profileFields" },
  }),
  visible_profile_notes: setting({
    input: z.array(z.enum(siteProfileFields)),
    read: z.array(z.string()),
    default: [],
    public: true,
    section: "profiles",
    form: { kind: "choices", options: siteProfileFields, labels: "profileFields" },
  }),
  search_fields: setting({
    input: z.array(z.enum(siteSearchFields)),
    read: z.array(z.string()),
    default: [],
    public: true,
    section: "profiles",
    form: { kind: "choices", options: siteSearchFields, labels: "searchFields" },
  }),
  member_resell: setting({ input: z.boolean(), read: z.boolean(), default: false, public: true, section: "profiles", form: { kind: "checkbox" } }),
  fictional_icon: setting({ input: label(20), read: z.string(), default: "", public: true, section: "fictional", form: { kind: "text" } }),
  fictional_singular: setting({ input: label(60), read: z.string(), default: "", public: true, section: "fictional", form: { kind: "text" } }),
  fictional_plural: setting({ input: label(60), read: z.string(), default: "", public: true, section: "fictional", form: { kind: "text" } }),
  fictional_warning: setting({ input: text(1000, { trim: true, multiline: true }), read: z.string(), default: "", public: true, section: "fictional", form: { kind: "textarea" } }),
  support_email: setting({ input: Email, read: z.string(), default: "", public: true, section: "support", form: { kind: "text", type: "email" } }),
  /** The site's own; null: the company's (members' settings always show one: api/http/settings.ts). */
  support_phone: setting({
    input: label(40)
      .pipe(z.string().regex(/^\+?[0-9 ()-]{6,40}$/, "A phone number such as +31 20 123 4567."))
      .nullable(),
    read: z.string().nullable(),
    default: null,
    public: false,
    section: "support",
    form: { kind: "text", type: "tel" },
  }),
  company_id: setting({ input: id, read: int, default: 1, public: true, section: "support", form: { kind: "select", source: "companies" } }),
  refund_days: setting({ input: z.number().int().min(0).max(365), read: int, default: 14, public: true, section: "support", form: { kind: "number" } }),
  /** docs/staff.md moderation modes: "pre", a new photo stays pending until a moderator approves it; "post", live at once and queued. */
  photo_moderation: setting({
    input: z.enum(["pre", "post"]),
    read: z.enum(["pre", "post"]),
    default: "post",
    public: false,
    section: "moderation",
    form: { kind: "select", options: ["pre", "post"], labels: "fields.photo_moderation" },
  }),
  /** docs/product.md §9 welcome discount: how long after signup a member's first purchase gets it; 0: none. */
  welcome_discount_hours: setting({ input: z.number().int().min(0).max(24 * 60), read: int, default: 72, public: false, section: "moderation", form: { kind: "number" } }),
  /** docs/staff.md, contact details in chat: off, masked in members' messages, or such messages held for a moderator. */
  contact_filter: setting({
    input: z.enum(contactFilterModes),
    read: z.enum(contactFilterModes),
    default: "off",
    public: false,
    section: "moderation",
    form: { kind: "select", options: contactFilterModes, labels: "fields.contact_filter" },
  }),
  delete_discount: setting({ input: z.number().int().min(1).max(90).nullable(), read: z.number().nullable(), default: null, public: true, section: "moderation", form: { kind: "number" } }),
  /** docs/product.md §1 live-cam promotion tiles (contract/cam.ts); null: none on this site. */
  cam_tiles: setting({ input: CamTilesSchema.nullable(), read: CamTilesSchema.nullable(), default: null, public: true, section: "cam", form: { kind: "cam" } }),
} as const;

export type SiteSettingName = keyof typeof siteSettings;
export const siteSettingNames = Object.keys(siteSettings) as SiteSettingName[];

type Declared = typeof siteSettings;
type InputShape = { [K in SiteSettingName]: Declared[K]["input"] };
type ReadShape = { [K in SiteSettingName]: Declared[K]["read"] };
type PublicName = { [K in SiteSettingName]: Declared[K]["public"] extends true ? K : never }[SiteSettingName];

const pick = <Shape>(part: "input" | "read", only?: (name: SiteSettingName) => boolean) =>
  Object.fromEntries(siteSettingNames.filter((name) => !only || only(name)).map((name) => [name, siteSettings[name][part]])) as Shape;

/** Settings that hold together: checked on save, by the api and by the staff form. */
export const siteSettingRules = [
  {
    holds: (s: Record<string, unknown>) => !s.logged_out_search_trafficsource || s.logged_out_search === true,
    message: "Logged-out search for traffic sources only needs logged-out search on.",
    path: ["logged_out_search_trafficsource"],
  },
] as const;

/** Every setting staff can edit; the api answers validation_failed with a message per field. */
export const SiteSettingsFields = z.object(pick<InputShape>("input"));
/** The settings of a site as stored (the staff console reads them). */
export const SiteSettingsRead = z.object(pick<ReadShape>("read"));
export type SiteSettingsRead = z.infer<typeof SiteSettingsRead>;
/** The settings members see as stored (contract/settings.ts adds what is derived per request). */
export const PublicSiteSettings = z.object(pick<Pick<ReadShape, PublicName>>("read", (name) => siteSettings[name].public));

/** The settings members see. */
export const publicSiteSettingNames = siteSettingNames.filter((name) => siteSettings[name].public) as PublicName[];

/** The declared defaults: a new row's values. */
export const siteSettingDefaults = Object.fromEntries(siteSettingNames.map((name) => [name, siteSettings[name].default])) as SiteSettingsRead;
