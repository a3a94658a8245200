import { z } from "zod";
import { CamTilesSchema, siteSettingNames, siteSettingRules, siteSettingSections, siteSettings, type SettingForm, type SiteSettingName, type SiteSettingsRead } from "#contract/site-settings";

/*
 * The staff console's form of a site's settings, derived from their declaration (contract/site-settings.ts): its zod
 * schema for conform (the action parses with it, the browser loads it on the form's first focus), the form's values of
 * stored settings, and the settings the api takes from a parsed form. A form sends no value for an empty field or an
 * unticked box: each setting then takes its empty value (null, false, "" or none), as its input check allows.
 */

type AnySchema = z.ZodType;

/** The kind of value a check takes at its root (through pipes, nullables and optionals). */
function baseType(schema: AnySchema): string {
  const def = (schema as unknown as { _zod: { def: { type: string; in?: AnySchema; innerType?: AnySchema } } })._zod.def;
  if (def.type === "pipe" && def.in) return baseType(def.in);
  if ((def.type === "nullable" || def.type === "optional") && def.innerType) return baseType(def.innerType);
  return def.type;
}

const accepts = (schema: AnySchema, value: unknown) => schema.safeParse(value).success;

/** What an empty field means for a setting, or undefined when it must have a value. */
function emptyValueOf(name: SiteSettingName): unknown {
  const { input, form } = siteSettings[name];
  if (form.kind === "cam") return null;
  if (form.kind === "choices") return [];
  return [null, false, ""].find((value) => accepts(input, value));
}

/** A required field left empty: the message the setting's own check gives for "" (else a plain one). */
function requiredMessage(name: SiteSettingName): string {
  const refusal = siteSettings[name].input.safeParse("");
  return baseType(siteSettings[name].input) === "number" ? "Enter a number." : (refusal.error?.issues[0]?.message ?? "Required.");
}

/** The cam tiles as form fields (cam_tiles.on, cam_tiles.link, ...): checked fully by the api once on. */
const camFields = z.object({ on: z.boolean().optional(), ...CamTilesSchema.partial().shape });

function fieldSchema(name: SiteSettingName): AnySchema {
  const { input, form } = siteSettings[name];
  if (form.kind === "cam") return camFields;
  // A list: conform reads no ticked box as none, and the setting's own check decides.
  if (form.kind === "choices") return input;
  if (emptyValueOf(name) !== undefined) return input.optional();
  const message = requiredMessage(name);
  return baseType(input) === "number" ? z.number({ error: message }).pipe(input as z.ZodType<unknown, number>) : z.string({ error: message }).pipe(input as z.ZodType<unknown, string>);
}

/** The form's schema: one field per setting, and the rules that tie settings together. */
export function siteSettingsFormSchema() {
  const shape = Object.fromEntries(siteSettingNames.map((name) => [name, fieldSchema(name)])) as Record<SiteSettingName, AnySchema>;
  return siteSettingRules.reduce((schema, rule) => schema.refine(rule.holds, { message: rule.message, path: [...rule.path] }), z.object(shape));
}

/** The form's starting values from stored settings. */
export function siteSettingsFormValues(settings: SiteSettingsRead): Record<string, unknown> {
  const tiles = settings.cam_tiles;
  return { ...settings, cam_tiles: tiles ? { on: true, ...tiles } : { on: false, first: 4, every: 8 } };
}

/** The settings as the api takes them (contract/staff-sites.ts SiteSettingsInput), from the parsed form. */
export function siteSettingsOfForm(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    siteSettingNames.map((name) => {
      if (siteSettings[name].form.kind === "cam") {
        const cam = (value[name] ?? {}) as Record<string, unknown>;
        const { on, ...tiles } = cam;
        return [name, on ? { link: "", title: "", text: "", cta: "", ...tiles } : null];
      }
      return [name, value[name] === undefined ? emptyValueOf(name) : value[name]];
    }),
  );
}

/**
 * The api's refusals ("settings.domain", "settings.countries.0", "settings.cam_tiles.link") keyed by the form's fields;
 * a refusal of something the form has no field for is the form's own (`""`).
 */
export function formErrorsOfApi(fields: Record<string, string[]>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fields)) {
    if (!key.startsWith("settings.")) continue;
    const path = key.slice("settings.".length).split(".");
    const name = path[0] as SiteSettingName;
    const field = !Object.hasOwn(siteSettings, name) ? "" : siteSettings[name].form.kind === "cam" && path[1] ? `${name}.${path[1]}` : name;
    errors[field] = [...(errors[field] ?? []), ...messages];
  }
  return errors;
}

/** The form's layout as plain data for the page (its loader sends it, so the page's code carries no zod). */
export type SiteSettingsLayout = { section: (typeof siteSettingSections)[number]; fields: { name: SiteSettingName; form: SettingForm }[] }[];

export function siteSettingsLayout(): SiteSettingsLayout {
  return siteSettingSections.map((section) => ({
    section,
    fields: siteSettingNames.filter((name) => siteSettings[name].section === section).map((name) => ({ name, form: siteSettings[name].form })),
  }));
}
