import type { ReactNode } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { siteCountries } from "#contract/locales";
import { paymentMethodIds, paymentMethodNames, type PaymentMethodId } from "#contract/payment-methods";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff, staffRouteId } from "~/features/staff/staff-api.server";
import { formDecimal, formNumber, formText } from "~/features/staff/staff-write.server";
import { saveSite } from "~/features/staff/site-settings.server";
import { siteSettingsFormSchema, siteSettingsFormValues, siteSettingsLayout } from "~/features/staff/site-settings-form";
import { formConstraint } from "~/utils/form-constraint";
import { SiteSettingsForm } from "~/features/staff/site-settings";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { StaffCard, StaffField, StaffTable } from "~/features/staff/staff-parts";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** One site's settings (admins), its minimum message costs per country and its push keys. */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const id = staffRouteId(params);
  const texts = staffTexts().sites;
  const result = await apiFor(request, context).call(endpoints.staffSite, { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status === 400 ? 404 : result.status });
  const done = new URL(request.url).searchParams.get("done");
  return {
    title: `${result.data.settings.name}: ${texts.editMetaTitle}`,
    description: texts.lead,
    texts,
    site: result.data,
    defaultValue: siteSettingsFormValues(result.data.settings),
    constraint: formConstraint(siteSettingsFormSchema()),
    layout: siteSettingsLayout(),
    done: done === "created" ? texts.created : done ? texts.saved : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const id = staffRouteId(params);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const number = (name: string) => (formText(form, name) ? formNumber(form, name) : 0);
  const bodies: Record<string, () => Record<string, unknown>> = {
    update: () => ({ action: "update", id, updated_at: formText(form, "updated_at") }),
    message_cost: () => ({ action: "message_cost", id, country: formText(form, "country"), costs: formDecimal(form, "costs", 4), currency: formText(form, "currency").toUpperCase() }),
    message_cost_remove: () => ({ action: "message_cost_remove", id, country: formText(form, "country") }),
    transaction_cost: () => ({ action: "transaction_cost", id, method: formText(form, "method"), fixed: number("fixed"), percent: formText(form, "percent") ? formDecimal(form, "percent", 2) : 0 }),
    transaction_cost_remove: () => ({ action: "transaction_cost_remove", id, method: formText(form, "method") }),
    push_keys: () => ({ action: "push_keys", id, keys: formText(form, "keys") }),
  };
  const body = Object.hasOwn(bodies, intent) ? bodies[intent]!() : null;
  if (!body) throw data(null, { status: 400 });
  const saved = await saveSite(request, context, form, body, staffTexts().sites);
  // The form keeps the time it was read: after "changed meanwhile" a second press is refused again until a reload.
  if (!saved.ok) return data({ intent, readAt: formText(form, "updated_at"), ...saved }, { status: saved.status });
  throw redirect(`/staff/sites/${id}?done=saved`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffSite() {
  const { texts, site, done, defaultValue, constraint, layout } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const costs = texts.costs;
  const fees = texts.transactionCosts;
  const settingsRefused = refused?.intent === "update" ? refused : null;
  // After "changed meanwhile" the form keeps the time it was read.
  const changed = settingsRefused?.changed ? settingsRefused.readAt : null;
  return (
    <>
      <Link to="/staff/sites" className="text-sm font-semibold underline">
        {texts.back}
      </Link>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">{site.settings.name}</h1>
      <p className="mt-1 text-sm text-gray-600">
        <span className="font-mono">{site.settings.domain}</span> · {fill(texts.editLead, { date: utcMinute(site.updated_at) })} ·{" "}
        <Link to={`/staff/packages?site=${site.id}`} className="font-semibold underline">
          {fill(texts.packagesLink, { name: site.settings.name })}
        </Link>
      </p>
      <div className="mt-4">
        {refused && !settingsRefused ? <FormAlert>{refused.error}</FormAlert> : !refused && done ? <Notice testId="staff-site-done">{done}</Notice> : null}
      </div>
      <SiteSettingsForm
        texts={texts}
        layout={layout}
        defaultValue={defaultValue}
        constraint={constraint}
        lastResult={settingsRefused?.reply}
        companies={site.companies}
        intent="update"
        updatedAt={changed || site.updated_at}
        busy={busy}
      />
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <CostList
          texts={costs}
          testId="site-message-costs"
          keyName="country"
          keyLabel={costs.country}
          rows={site.minimum_message_costs.map((cost) => ({ key: cost.country, label: cost.country, value: `${cost.costs.toFixed(2)} ${cost.currency}`, removeLabel: fill(costs.remove, { country: cost.country }) }))}
          busy={busy}
        >
          <input type="hidden" name="intent" value="message_cost" />
          <StaffField id="cost-country" label={costs.country}>
            <select id="cost-country" name="country" className={staffField}>
              {siteCountries.map((country) => (
                <option key={country} value={country}>
                  {country}
                </option>
              ))}
            </select>
          </StaffField>
          <StaffField id="cost-costs" label={costs.costs} hint={costs.hint}>
            <input id="cost-costs" name="costs" required inputMode="decimal" pattern="\d{1,4}([.,]\d{1,2})?" className={staffField} />
          </StaffField>
          <StaffField id="cost-currency" label={costs.currency}>
            <input id="cost-currency" name="currency" required maxLength={3} defaultValue="EUR" autoComplete="off" className={staffField} />
          </StaffField>
        </CostList>
        <CostList
          texts={fees}
          testId="site-transaction-costs"
          keyName="method"
          keyLabel={fees.method}
          rows={site.transaction_costs.map((cost) => {
            const name = paymentMethodNames[cost.method as PaymentMethodId] ?? cost.method;
            return { key: cost.method, label: name, value: `${(cost.fixed / 100).toFixed(2)} + ${cost.percent}%`, removeLabel: fill(fees.remove, { method: name }) };
          })}
          busy={busy}
        >
          <input type="hidden" name="intent" value="transaction_cost" />
          <StaffField id="fee-method" label={fees.method}>
            <select id="fee-method" name="method" className={staffField}>
              {paymentMethodIds.map((method) => (
                <option key={method} value={method}>
                  {paymentMethodNames[method]}
                </option>
              ))}
            </select>
          </StaffField>
          <StaffField id="fee-fixed" label={fees.fixed} hint={fees.fixedHint}>
            <input id="fee-fixed" name="fixed" type="number" min={0} max={100000} defaultValue={0} className={staffField} />
          </StaffField>
          <StaffField id="fee-percent" label={fees.percent} hint={fees.percentHint}>
            <input id="fee-percent" name="percent" inputMode="decimal" pattern="\d{1,2}([.,]\d{1,2})?" defaultValue="0" className={staffField} />
          </StaffField>
        </CostList>
        <StaffCard title={texts.push.title} testId="site-push-keys">
          <p className="text-sm text-gray-700">{site.push_public_key ? texts.push.on : texts.push.off}</p>
          <p className="mt-1 text-xs text-gray-600">{texts.push.warning}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value="push_keys" />
              <input type="hidden" name="keys" value="generate" />
              <Button size="sm" variant="neutral" disabled={busy}>
                {texts.push.generate}
              </Button>
            </Form>
            {site.push_public_key ? (
              <Form method="post">
                <input type="hidden" name="intent" value="push_keys" />
                <input type="hidden" name="keys" value="remove" />
                <Button size="sm" variant="neutral" disabled={busy}>
                  {texts.push.remove}
                </Button>
              </Form>
            ) : null}
          </div>
        </StaffCard>
      </div>
    </>
  );
}

/**
 * A site's costs of one kind (minimum message costs per country, transaction costs per method): the list with a remove
 * button per row and the form that sets one (`children`, with its fields and intent).
 */
function CostList({
  texts,
  testId,
  keyName,
  keyLabel,
  rows,
  busy,
  children,
}: {
  texts: { title: string; lead: string; empty: string; costs: string; add: string };
  testId: string;
  keyName: "country" | "method";
  keyLabel: string;
  rows: { key: string; label: string; value: string; removeLabel: string }[];
  busy: boolean;
  children: ReactNode;
}) {
  const removeIntent = keyName === "country" ? "message_cost_remove" : "transaction_cost_remove";
  return (
    <StaffCard title={texts.title} testId={testId}>
      <p className="text-sm text-gray-600">{texts.lead}</p>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-gray-700">{texts.empty}</p>
      ) : (
        <StaffTable testId={`${testId.replace(/s$/, "")}-list`} headings={[keyLabel, texts.costs, ""]} className="mt-2">
          {rows.map((row) => (
            <tr key={row.key}>
              <td className="px-4 py-2">{row.label}</td>
              <td className="px-4 py-2 tabular-nums">{row.value}</td>
              <td className="px-4 py-2">
                <Form method="post">
                  <input type="hidden" name="intent" value={removeIntent} />
                  <input type="hidden" name={keyName} value={row.key} />
                  <Button size="sm" variant="neutral" disabled={busy}>
                    {row.removeLabel}
                  </Button>
                </Form>
              </td>
            </tr>
          ))}
        </StaffTable>
      )}
      <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-3">
        {children}
        <div className="sm:col-span-3">
          <Button size="sm" disabled={busy}>
            {texts.add}
          </Button>
        </div>
      </Form>
    </StaffCard>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
