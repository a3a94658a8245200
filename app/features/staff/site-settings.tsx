import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { locales, siteCountries, visibleLocales } from "#contract/locales";
import { siteNiches, siteProfileFields, siteSearchFields } from "#contract/site-fields";
import { siteTimeZones, type SiteResponse } from "#contract/staff-sites";
import { Button } from "~/components/ui/button";
import type { StaffTexts } from "./staff-texts.server";
import { StaffCard, StaffField } from "./staff-parts";
import { fill, staffField } from "./staff-format";

type Texts = StaffTexts["sites"];
type Values = SiteResponse["settings"];
type Company = SiteResponse["companies"][number];
/** The api's refusals keyed by field ("settings.domain" as the api names them, or "updated_at"). */
export type FieldErrors = Record<string, string[]>;

/** The language tags a domain can have: a bare language, or a language as spoken in a served country (nl-BE). */
const languageTags = [...locales, ...siteCountries.flatMap((country) => visibleLocales(country).map((locale) => `${locale}-${country}`))];

const checkboxClass = "h-4 w-4 rounded border-gray-400";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <StaffCard title={title}>
      <div className="grid gap-3 sm:grid-cols-2">{children}</div>
    </StaffCard>
  );
}

/**
 * The form of every site setting, for a new site and for an existing one. Plain fields posted as a
 * form: it works without JavaScript, and a refused save shows the typed values again with a message at each field.
 */
export function SiteSettingsForm({ texts, values, companies, errors, intent, updatedAt, busy }: { texts: Texts; values: Values; companies: Company[]; errors: FieldErrors; intent: "create" | "update"; updatedAt?: string; busy: boolean }) {
  const f = texts.fields;
  const error = (name: string) => errors[`settings.${name}`]?.join(" ") ?? (name === "countries" ? Object.entries(errors).find(([key]) => key.startsWith("settings.countries."))?.[1].join(" ") : undefined);
  const described = (name: string) => (error(name) ? { "aria-invalid": true, "aria-describedby": `site-${name}-error` } : {});
  const text = (name: keyof Values & keyof typeof f, props: { type?: string; required?: boolean; maxLength?: number; hint?: string } = {}) => (
    <StaffField id={`site-${name}`} label={f[name].label} hint={props.hint ?? ("hint" in f[name] ? (f[name] as { hint: string }).hint : undefined)} error={error(name)}>
      <input id={`site-${name}`} name={name} type={props.type ?? "text"} required={props.required} maxLength={props.maxLength} defaultValue={String(values[name] ?? "")} className={staffField} {...described(name)} />
    </StaffField>
  );
  const number = (name: keyof Values & keyof typeof f, min: number, max: number, optional = false) => (
    <StaffField id={`site-${name}`} label={f[name].label} error={error(name)}>
      <input id={`site-${name}`} name={name} type="number" min={min} max={max} required={!optional} defaultValue={values[name] === null ? "" : String(values[name])} className={staffField} {...described(name)} />
    </StaffField>
  );
  const check = (name: keyof Values & keyof typeof f) => (
    <div className="flex items-start gap-2 sm:col-span-2">
      <input id={`site-${name}`} name={name} type="checkbox" defaultChecked={values[name] === true} className={`mt-0.5 ${checkboxClass}`} {...described(name)} />
      <label htmlFor={`site-${name}`} className="text-sm text-gray-800">
        {f[name].label}
      </label>
      {error(name) ? (
        <p id={`site-${name}-error`} className="text-xs font-medium text-red-700" data-testid="staff-field-error">
          {error(name)}
        </p>
      ) : null}
    </div>
  );
  const choices = (name: "countries" | "visible_profile_fields" | "visible_profile_notes" | "search_fields", options: readonly string[], labelOf: (option: string) => string) => (
    <fieldset className="sm:col-span-2" {...described(name)}>
      <legend className="text-sm font-medium text-gray-700">{f[name].label}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {options.map((option) => (
          <label key={option} className="flex items-center gap-1.5 text-sm text-gray-800">
            <input type="checkbox" name={name} value={option} defaultChecked={values[name].includes(option)} className={checkboxClass} />
            {labelOf(option)}
          </label>
        ))}
      </div>
      {error(name) ? (
        <p id={`site-${name}-error`} className="mt-1 text-xs font-medium text-red-700" data-testid="staff-field-error">
          {error(name)}
        </p>
      ) : null}
    </fieldset>
  );
  const select = (name: keyof Values & keyof typeof f, options: { value: string; label: string }[]) => (
    <StaffField id={`site-${name}`} label={f[name].label} error={error(name)}>
      <select id={`site-${name}`} name={name} defaultValue={values[name] === null ? "" : String(values[name])} className={staffField} {...described(name)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </StaffField>
  );
  const company = companies.find((c) => c.id === values.company_id) ?? companies[0];
  const textarea = (name: "description" | "fictional_warning") => (
    <div className="sm:col-span-2">
      <StaffField id={`site-${name}`} label={f[name].label} error={error(name)}>
        <textarea id={`site-${name}`} name={name} rows={3} maxLength={1000} defaultValue={values[name]} className={staffField} {...described(name)} />
      </StaffField>
    </div>
  );

  return (
    <Form method="post" className="mt-6 grid gap-4" data-testid="site-settings-form">
      <input type="hidden" name="intent" value={intent} />
      {updatedAt ? <input type="hidden" name="updated_at" value={updatedAt} /> : null}
      <Section title={texts.sections.identity}>
        {text("name", { required: true, maxLength: 100 })}
        {text("domain", { required: true, maxLength: 253 })}
        {select(
          "niche",
          siteNiches.map((n) => ({ value: String(n), label: String(n) })),
        )}
        {text("cdn_prefix", { required: true, maxLength: 300 })}
        {text("index_title", { required: true, maxLength: 200 })}
        {text("mail_name", { required: true, maxLength: 100 })}
        {select(
          "time_zone",
          siteTimeZones.map((zone) => ({ value: zone, label: zone })),
        )}
        {textarea("description")}
        {check("is_default")}
      </Section>
      <Section title={texts.sections.audience}>
        {choices("countries", siteCountries, (c) => c)}
        {select("domain_language", [{ value: "", label: f.domain_language.none }, ...languageTags.map((tag) => ({ value: tag, label: tag })), ...(values.domain_language && !languageTags.includes(values.domain_language) ? [{ value: values.domain_language, label: values.domain_language }] : [])])}
      </Section>
      <Section title={texts.sections.visitors}>
        {select(
          "signups",
          (["all", "with_trafficsource", "other"] as const).map((value) => ({ value, label: texts.signups[value] })),
        )}
        {number("min_age", 18, 99)}
        {check("logged_out_search")}
        {check("logged_out_search_trafficsource")}
        {check("enable_site_entry_popup")}
        {check("ask_signup_message")}
      </Section>
      <Section title={texts.sections.credits}>
        {number("message_credits", 0, 100000)}
        {number("photo_credits", 0, 100000)}
        {number("gift_credits", 0, 100000)}
        {number("signup_credits", 0, 100000)}
        {number("message_length", 20, 10000)}
      </Section>
      <Section title={texts.sections.profiles}>
        {choices("visible_profile_fields", siteProfileFields, (field) => texts.profileFields[field as keyof Texts["profileFields"]])}
        {choices("visible_profile_notes", siteProfileFields, (field) => texts.profileFields[field as keyof Texts["profileFields"]])}
        {choices("search_fields", siteSearchFields, (field) => texts.searchFields[field as keyof Texts["searchFields"]])}
        {check("member_resell")}
      </Section>
      <Section title={texts.sections.fictional}>
        {text("fictional_icon", { maxLength: 20 })}
        {text("fictional_singular", { maxLength: 60 })}
        {text("fictional_plural", { maxLength: 60 })}
        {textarea("fictional_warning")}
      </Section>
      <Section title={texts.sections.support}>
        {text("support_email", { type: "email", required: true, maxLength: 254 })}
        {text("support_phone", { type: "tel", maxLength: 40, hint: fill(f.support_phone.hint, { phone: company?.support_phone ?? "" }) })}
        {select(
          "company_id",
          companies.map((c) => ({ value: String(c.id), label: c.name })),
        )}
        {number("refund_days", 0, 365)}
      </Section>
      <Section title={texts.sections.moderation}>
        {select(
          "photo_moderation",
          (["pre", "post"] as const).map((value) => ({ value, label: f.photo_moderation[value] })),
        )}
        {number("welcome_discount_hours", 0, 1440)}
        {number("delete_discount", 1, 90, true)}
      </Section>
      <Section title={texts.sections.cam}>
        <CamTilesFields texts={texts} values={values.cam_tiles} error={error} />
      </Section>
      <div>
        <Button size="md" disabled={busy}>
          {intent === "create" ? texts.create : texts.save}
        </Button>
      </div>
    </Form>
  );
}

/** docs/product.md §1 live-cam tiles: on or off, the partner's link template, the tile's texts and where tiles go. */
function CamTilesFields({ texts, values, error }: { texts: Texts; values: Values["cam_tiles"]; error: (name: string) => string | undefined }) {
  const c = texts.cam;
  const field = (name: "link" | "title" | "text" | "cta", maxLength: number, hint?: string) => (
    <StaffField id={`site-cam-${name}`} label={c[name]} hint={hint} error={error(`cam_tiles.${name}`)}>
      <input id={`site-cam-${name}`} name={`cam_${name}`} maxLength={maxLength} defaultValue={values?.[name] ?? ""} className={staffField} />
    </StaffField>
  );
  const number = (name: "first" | "every", min: number) => (
    <StaffField id={`site-cam-${name}`} label={c[name]} error={error(`cam_tiles.${name}`)}>
      <input id={`site-cam-${name}`} name={`cam_${name}`} type="number" min={min} max={50} defaultValue={values?.[name] ?? (name === "first" ? 4 : 8)} className={staffField} />
    </StaffField>
  );
  return (
    <>
      <div className="flex items-start gap-2 sm:col-span-2">
        <input id="site-cam-on" name="cam_on" type="checkbox" defaultChecked={values !== null} className={`mt-0.5 ${checkboxClass}`} />
        <label htmlFor="site-cam-on" className="text-sm text-gray-800">
          {c.on}
        </label>
      </div>
      <div className="sm:col-span-2">{field("link", 500, c.linkHint)}</div>
      {field("title", 60)}
      {field("cta", 40)}
      <div className="sm:col-span-2">{field("text", 160)}</div>
      {number("first", 0)}
      {number("every", 1)}
    </>
  );
}

/** The settings as the api takes them, from the posted form (numbers the browser let through unchecked become NaN: the api refuses them). */
export function siteSettingsBody(form: FormData, read: { text: (name: string) => string; number: (name: string) => number; list: (name: string) => string[] }) {
  const optional = (name: string) => read.text(name) || null;
  const on = (name: string) => form.get(name) === "on";
  return {
    name: read.text("name"),
    domain: read.text("domain"),
    is_default: on("is_default"),
    domain_language: optional("domain_language"),
    cdn_prefix: read.text("cdn_prefix"),
    niche: read.number("niche"),
    index_title: read.text("index_title"),
    description: read.text("description"),
    countries: read.list("countries"),
    signups: read.text("signups"),
    logged_out_search: on("logged_out_search"),
    logged_out_search_trafficsource: on("logged_out_search_trafficsource"),
    enable_site_entry_popup: on("enable_site_entry_popup"),
    message_credits: read.number("message_credits"),
    signup_credits: read.number("signup_credits"),
    photo_credits: read.number("photo_credits"),
    gift_credits: read.number("gift_credits"),
    message_length: read.number("message_length"),
    support_email: read.text("support_email"),
    support_phone: optional("support_phone"),
    visible_profile_fields: read.list("visible_profile_fields"),
    visible_profile_notes: read.list("visible_profile_notes"),
    search_fields: read.list("search_fields"),
    member_resell: on("member_resell"),
    fictional_icon: read.text("fictional_icon"),
    fictional_warning: read.text("fictional_warning"),
    fictional_singular: read.text("fictional_singular"),
    fictional_plural: read.text("fictional_plural"),
    refund_days: read.number("refund_days"),
    welcome_discount_hours: read.number("welcome_discount_hours"),
    min_age: read.number("min_age"),
    ask_signup_message: on("ask_signup_message"),
    delete_discount: read.text("delete_discount") ? read.number("delete_discount") : null,
    photo_moderation: read.text("photo_moderation"),
    mail_name: read.text("mail_name"),
    time_zone: read.text("time_zone"),
    company_id: read.number("company_id"),
    cam_tiles: on("cam_on")
      ? { link: read.text("cam_link"), title: read.text("cam_title"), text: read.text("cam_text"), cta: read.text("cam_cta"), first: read.number("cam_first"), every: read.number("cam_every") }
      : null,
  };
}
