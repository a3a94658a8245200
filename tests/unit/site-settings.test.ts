import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { siteSettingDefaults, siteSettingNames, siteSettings } from "#contract/site-settings";
import { SiteSettingsInput } from "#contract/staff-sites";
import { formErrorsOfApi, siteSettingsFormSchema, siteSettingsFormValues, siteSettingsOfForm } from "../../app/features/staff/site-settings-form";

/** contract/site-settings.ts declares a site's settings once; the staff form (app/features/staff/site-settings-form.ts) is derived from it. */
const filled: Record<string, string | string[]> = {
  name: "Console Dates",
  domain: "Console.Example",
  niche: "2",
  cdn_prefix: "/uploads/",
  index_title: "Meet someone",
  mail_name: "Console Dates",
  description: "",
  countries: ["NL", "BE"],
  domain_language: "",
  signups: "other",
  min_age: "21",
  logged_out_search: "on",
  message_credits: "12",
  photo_credits: "6",
  gift_credits: "20",
  signup_credits: "30",
  message_length: "800",
  fictional_icon: "",
  fictional_singular: "",
  fictional_plural: "",
  fictional_warning: "",
  support_email: "help@console.example",
  support_phone: "",
  company_id: "1",
  refund_days: "14",
  photo_moderation: "pre",
  contact_filter: "mask",
  time_zone: "Europe/Amsterdam",
  welcome_discount_hours: "72",
  delete_discount: "",
  "cam_tiles.first": "4",
  "cam_tiles.every": "8",
};

function formData(values: Record<string, string | string[]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  return form;
}

describe("the site settings' declaration", () => {
  it("gives every setting a default its reading accepts, and the api's input check every setting", () => {
    for (const name of siteSettingNames) expect(siteSettings[name].read.safeParse(siteSettingDefaults[name]).success, name).toBe(true);
    expect(Object.keys(SiteSettingsInput.shape).sort()).toEqual([...siteSettingNames].sort());
  });

  it("turns a posted form into the api's settings: empty fields and unticked boxes take their empty value", () => {
    const submission = parseWithZod(formData(filled), { schema: siteSettingsFormSchema() });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    const settings = SiteSettingsInput.parse(siteSettingsOfForm(submission.value));
    expect(settings).toMatchObject({
      domain: "console.example",
      niche: 2,
      countries: ["NL", "BE"],
      domain_language: null,
      support_phone: null,
      delete_discount: null,
      description: "",
      is_default: false,
      logged_out_search: true,
      enable_site_entry_popup: false,
      visible_profile_fields: [],
      cam_tiles: null,
      photo_moderation: "pre",
      contact_filter: "mask",
    });
  });

  it("refuses a form field by field with the settings' own messages, and the rules between settings", () => {
    const submission = parseWithZod(formData({ ...filled, name: "", countries: [], min_age: "12" }), { schema: siteSettingsFormSchema() });
    expect(submission.status).toBe("error");
    const errors = submission.reply().error ?? {};
    expect(errors.name).toEqual(["A site needs a name."]);
    expect(errors.countries).toEqual(["A site serves at least one country."]);
    expect(errors.min_age?.length).toBe(1);
    // The rules between settings are checked once every setting passes its own.
    const { logged_out_search: _off, ...rest } = filled;
    const ruled = parseWithZod(formData({ ...rest, logged_out_search_trafficsource: "on" }), { schema: siteSettingsFormSchema() });
    expect(ruled.reply().error?.logged_out_search_trafficsource).toEqual(["Logged-out search for traffic sources only needs logged-out search on."]);
  });

  it("shows stored settings in the form, cam tiles on or off, and the api's refusals at their fields", () => {
    const values = siteSettingsFormValues({ ...siteSettingDefaults, cam_tiles: null });
    expect(values.cam_tiles).toEqual({ on: false, first: 4, every: 8 });
    expect(formErrorsOfApi({ "settings.domain": ["Another site has this domain."], "settings.countries.0": ["Pick one."], "settings.cam_tiles.link": ["An https address."], updated_at: ["Changed."] })).toEqual({
      domain: ["Another site has this domain."],
      countries: ["Pick one."],
      "cam_tiles.link": ["An https address."],
    });
  });
});
