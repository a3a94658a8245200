import { Form } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { useMemo, type ReactNode } from "react";
import { locales, siteCountries, visibleLocales } from "#contract/locales";
import type { SettingForm, SiteSettingName } from "#contract/site-settings";
import type { SiteResponse } from "#contract/staff-sites";
import { Button } from "~/components/ui/button";
import { FormAlert, InputField, SelectField, TextareaField } from "~/components/ui/form-fields";
import { CheckboxField, CheckboxGroupField } from "~/components/ui/choice-fields";
import type { Constraint, FieldView } from "~/components/ui/form-view";
import { useValidatedForm } from "~/components/ui/validated-form";
import type { SiteSettingsLayout } from "./site-settings-form";
import type { StaffTexts } from "./staff-texts.server";
import { StaffCard } from "./staff-parts";
import { fill } from "./staff-format";

type Texts = StaffTexts["sites"];
type Company = SiteResponse["companies"][number];

/** The language tags a domain can have: a bare language, or a language as spoken in a served country (nl-BE). */
const languageTags = [...locales, ...siteCountries.flatMap((country) => visibleLocales(country).map((locale) => `${locale}-${country}`))];

/** A text of locales/en/staff.json `sites` by its dotted path ("signups.all"), or undefined. */
function textAt(texts: Texts, path: string): string | undefined {
  const found = path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), texts);
  return typeof found === "string" ? found : undefined;
}

/** Fields that take the section's full width. */
const wide = (form: SettingForm) => ["checkbox", "choices", "textarea", "cam"].includes(form.kind);

/**
 * The form of every site setting, for a new site and for an existing one, drawn from their declaration
 * (contract/site-settings.ts; the page's loader sends the layout, siteSettingsLayout) with the form parts and
 * conform (app/features/staff/site-settings-form.ts holds its schema, loaded on the form's first focus). It works
 * without JavaScript: the action checks it with the same schema and shows a refusal at its field.
 */
export function SiteSettingsForm({
  texts,
  layout,
  defaultValue,
  constraint,
  lastResult,
  companies,
  intent,
  updatedAt,
  busy,
}: {
  texts: Texts;
  layout: SiteSettingsLayout;
  defaultValue: Record<string, unknown>;
  constraint: Record<string, Constraint>;
  lastResult: SubmissionResult<string[]> | null | undefined;
  companies: Company[];
  intent: "create" | "update";
  updatedAt?: string;
  busy: boolean;
}) {
  const schema = useMemo(() => () => import("./site-settings-form").then((m) => () => m.siteSettingsFormSchema()), []);
  const { form, fields, formProps, validation } = useValidatedForm({ id: "site", schema, constraint, lastResult, defaultValue });
  const companyId = Number(fields.company_id.initialValue ?? defaultValue.company_id);
  const company = companies.find((c) => c.id === companyId) ?? companies[0];
  const currentLanguage = typeof fields.domain_language.initialValue === "string" ? fields.domain_language.initialValue : "";

  const control = (name: SiteSettingName, declared: SettingForm): ReactNode => {
    const field: FieldView = fields[name];
    const label = textAt(texts, `fields.${name}.label`) ?? name;
    const hintText = textAt(texts, `fields.${name}.hint`);
    const hint = hintText ? <p className="mt-1 text-xs text-gray-600">{fill(hintText, { phone: company?.support_phone ?? "" })}</p> : undefined;
    const optionLabel = (labels: string | undefined, value: string | number) => (labels ? textAt(texts, `${labels}.${value}`) : undefined) ?? String(value);
    switch (declared.kind) {
      case "text":
        return <InputField field={field} label={label} type={declared.type ?? "text"} hint={hint} />;
      case "number":
        return <InputField field={field} label={label} type="number" hint={hint} />;
      case "textarea":
        return <TextareaField field={field} label={label} rows={3} />;
      case "checkbox":
        return <CheckboxField field={field} label={label} />;
      case "choices": {
        // The chosen ones first, in their stored order, then the rest: a list such as the countries is ordered (the
        // first country is the site's default for payments), and a form posts its ticked boxes in their page order,
        // so saving the form unchanged keeps the order.
        const chosen = (Array.isArray(field.initialValue) ? field.initialValue : []).filter((value): value is string => typeof value === "string" && declared.options.includes(value));
        const ordered = [...chosen, ...declared.options.filter((value) => !chosen.includes(value))];
        return <CheckboxGroupField field={field} label={label} options={ordered.map((value) => ({ value, label: optionLabel(declared.labels, value) }))} />;
      }
      case "select": {
        const options =
          "source" in declared
            ? declared.source === "companies"
              ? companies.map((c) => ({ value: String(c.id), label: c.name }))
              : [
                  { value: "", label: textAt(texts, `fields.${name}.none`) ?? "" },
                  ...[...languageTags, ...(currentLanguage && !languageTags.includes(currentLanguage) ? [currentLanguage] : [])].map((tag) => ({ value: tag, label: tag })),
                ]
            : declared.options.map((value) => ({ value: String(value), label: optionLabel(declared.labels, value) }));
        return <SelectField field={field} label={label} options={options} />;
      }
      case "cam":
        return <CamTilesFields texts={texts} fields={fields} />;
    }
  };

  return (
    <Form method="post" className="mt-6 grid gap-4" data-testid="site-settings-form" {...formProps}>
      {validation}
      <input type="hidden" name="intent" value={intent} />
      {updatedAt ? <input type="hidden" name="updated_at" value={updatedAt} /> : null}
      {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
      {layout.map(({ section, fields: sectionFields }) => (
        <StaffCard key={section} title={texts.sections[section]}>
          <div className="grid gap-3 sm:grid-cols-2">
            {sectionFields.map(({ name, form: declared }) => (
              <div key={name} className={wide(declared) ? "sm:col-span-2" : undefined}>
                {control(name, declared)}
              </div>
            ))}
          </div>
        </StaffCard>
      ))}
      <div>
        <Button size="md" disabled={busy}>
          {intent === "create" ? texts.create : texts.save}
        </Button>
      </div>
    </Form>
  );
}

/** docs/product.md §1 live-cam tiles: on or off, the partner's link template, the tile's texts and where tiles go. */
function CamTilesFields({ texts, fields }: { texts: Texts; fields: Record<string, FieldView> }) {
  const c = texts.cam;
  const field = (name: string) => fields[`cam_tiles.${name}`] as FieldView;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <CheckboxField field={field("on")} label={c.on} />
      </div>
      <div className="sm:col-span-2">
        <InputField field={field("link")} label={c.link} type="text" hint={<p className="mt-1 text-xs text-gray-600">{c.linkHint}</p>} />
      </div>
      <InputField field={field("title")} label={c.title} type="text" />
      <InputField field={field("cta")} label={c.cta} type="text" />
      <div className="sm:col-span-2">
        <InputField field={field("text")} label={c.text} type="text" />
      </div>
      <InputField field={field("first")} label={c.first} type="number" />
      <InputField field={field("every")} label={c.every} type="number" />
    </div>
  );
}
