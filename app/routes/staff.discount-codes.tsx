import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { staffT } from "~/features/staff/staff-i18n.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { StaffCard, StaffField, StaffTable } from "~/features/staff/staff-parts";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** Discount codes (admins): the list with their uses, a new code, expire one. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().discountCodes;
  const result = await apiFor(request, context).call(endpoints.discountCodes);
  if (!result.ok) throw new Response(null, { status: result.status });
  // The new code form's key, new with each rendering: one form makes one code, however often it is sent.
  return { title: texts.metaTitle, description: texts.lead, texts, list: result.data, formKey: crypto.randomUUID() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const optional = (name: string) => formText(form, name).toUpperCase() || null;
  const body =
    intent === "expire"
      ? { action: "expire", id: formNumber(form, "id") }
      : intent === "create"
        ? {
            action: "create",
            form_key: formText(form, "form_key"),
            site_id: formText(form, "site_id") ? formNumber(form, "site_id") : null,
            code: formText(form, "code"),
            percentage: formNumber(form, "percentage"),
            validity: formText(form, "validity"),
            max_uses: formText(form, "max_uses") ? formNumber(form, "max_uses") : null,
            minimum_order_value: formText(form, "minimum_order_value") ? formNumber(form, "minimum_order_value") : 0,
            currency: optional("currency"),
            country: optional("country"),
            expires_at: formText(form, "expires_at") || null,
          }
        : null;
  if (!body) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.changeDiscountCode, body);
  if (!result.ok) return data({ error: result.message, done: null }, { status: result.status });
  const texts = staffTexts().discountCodes;
  const t = staffT();
  return { error: null, done: result.data.replay ? texts.replay : "code" in body ? t("discountCodes.created", { code: (body.code ?? "").toUpperCase() }) : texts.done };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffDiscountCodes() {
  const { texts, list, formKey } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const c = texts.columns;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <div className="mt-4">{outcome?.error ? <FormAlert>{outcome.error}</FormAlert> : outcome?.done ? <Notice testId="staff-catalogue-done">{outcome.done}</Notice> : null}</div>
      <StaffTable testId="staff-discount-codes" headings={[c.code, c.site, c.percentage, c.validity, c.conditions, c.uses, c.state, c.actions]} className="mt-4">
        {list.codes.map((code) => (
          <tr key={code.id} data-testid="staff-discount-code">
            <td className="px-4 py-3 font-mono">{code.code}</td>
            <td className="px-4 py-3">{code.site?.name ?? texts.allSites}</td>
            <td className="px-4 py-3 tabular-nums">{code.percentage}%</td>
            <td className="px-4 py-3">{code.validity === "uses" ? fill(texts.uses, { used: code.used_count, max: code.max_uses ?? 0 }) : texts.oncePerUser}</td>
            <td className="px-4 py-3">
              {[
                code.minimum_order_value ? fill(texts.minimum, { amount: code.minimum_order_value, currency: code.currency ?? "" }) : null,
                code.country ? fill(texts.country, { country: code.country }) : null,
                code.expires_at ? fill(texts.until, { date: utcMinute(code.expires_at) }) : null,
              ]
                .filter(Boolean)
                .join(", ") || texts.none}
            </td>
            <td className="px-4 py-3 tabular-nums">{code.uses}</td>
            <td className="px-4 py-3">{code.active ? texts.active : texts.ended}</td>
            <td className="px-4 py-3">
              {code.active ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="expire" />
                  <input type="hidden" name="id" value={code.id} />
                  <Button size="sm" variant="neutral" disabled={busy} aria-label={`${texts.expire} ${code.code}`}>
                    {texts.expire}
                  </Button>
                </Form>
              ) : null}
            </td>
          </tr>
        ))}
      </StaffTable>
      <div className="mt-6 max-w-xl">
        <StaffCard title={texts.createTitle}>
          {/* A new key after each answer: a made code clears the form; a refused one keeps what was typed only without JavaScript. */}
          <Form method="post" className="grid gap-3 sm:grid-cols-2" key={outcome?.done ? formKey : "form"}>
            <input type="hidden" name="intent" value="create" />
            <input type="hidden" name="form_key" value={formKey} />
            <StaffField id="code-code" label={texts.code} hint={texts.codeHint}>
              <input id="code-code" name="code" required pattern="[A-Za-z0-9_\-]{3,40}" autoComplete="off" className={staffField} />
            </StaffField>
            <StaffField id="code-site" label={texts.site}>
              <select id="code-site" name="site_id" defaultValue="" className={staffField}>
                <option value="">{texts.allSites}</option>
                {list.sites.map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name}
                  </option>
                ))}
              </select>
            </StaffField>
            <StaffField id="code-percentage" label={texts.percentage}>
              <input id="code-percentage" name="percentage" type="number" min={1} max={90} required className={staffField} />
            </StaffField>
            <StaffField id="code-validity" label={texts.validity}>
              <select id="code-validity" name="validity" defaultValue="once_per_user" className={staffField}>
                <option value="once_per_user">{texts.validityOnce}</option>
                <option value="uses">{texts.validityUses}</option>
              </select>
            </StaffField>
            <StaffField id="code-max-uses" label={texts.maxUses}>
              <input id="code-max-uses" name="max_uses" type="number" min={1} className={staffField} />
            </StaffField>
            <StaffField id="code-minimum" label={texts.minimumOrder}>
              <input id="code-minimum" name="minimum_order_value" type="number" min={0} defaultValue={0} className={staffField} />
            </StaffField>
            <StaffField id="code-currency" label={texts.currency}>
              <input id="code-currency" name="currency" maxLength={3} autoComplete="off" className={staffField} />
            </StaffField>
            <StaffField id="code-country" label={texts.countryField}>
              <input id="code-country" name="country" maxLength={2} autoComplete="off" className={staffField} />
            </StaffField>
            <StaffField id="code-expires" label={texts.expires}>
              <input id="code-expires" name="expires_at" type="date" className={staffField} />
            </StaffField>
            <div className="sm:col-span-2">
              <Button size="md" disabled={busy}>
                {texts.create}
              </Button>
            </div>
          </Form>
        </StaffCard>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
