import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { PackagesQuery, type PackageRow } from "#contract/staff-sites";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formDecimal, formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { staffField } from "~/features/staff/staff-format";
import { StaffCard, StaffField, StaffTable } from "~/features/staff/staff-parts";
import { Button, ButtonLink } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { useStaffT } from "~/features/staff/staff-i18n";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** A site's credit packages per country and currency (admins): the list, a new one, change, end and resume a sale. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().packages;
  const url = new URL(request.url);
  const site = PackagesQuery.shape.site_id.safeParse(url.searchParams.get("site") ?? undefined).data;
  const result = await apiFor(request, context).call(endpoints.staffPackages, { query: site ? { site_id: site } : undefined });
  if (!result.ok) throw new Response(null, { status: result.status });
  const editId = Number(url.searchParams.get("edit"));
  return {
    title: texts.metaTitle,
    description: texts.lead,
    texts,
    list: result.data,
    editing: result.data.packages.find((pkg) => pkg.id === editId) ?? null,
    done: { what: url.searchParams.get("done"), id: Number(url.searchParams.get("id")) || 0 },
    // Ending a sale is asked first (a dialog; without JavaScript the same dialog open in the page).
    ending: result.data.packages.find((pkg) => pkg.active && pkg.id === Number(url.searchParams.get("end"))) ?? null,
    // The new package form's key, new with each rendering: one form makes one package, however often it is sent.
    formKey: crypto.randomUUID(),
  };
}


export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const siteId = formNumber(form, "site_id");
  const fields = () => ({
    country: formText(form, "country"),
    credits: formNumber(form, "credits"),
    // A price typed as 19.99 or 19,99, in minor units.
    amount: Math.round(formDecimal(form, "amount", 6) * 100),
    currency: formText(form, "currency").toUpperCase(),
    mark: formText(form, "mark") || null,
    position: formText(form, "position") ? formNumber(form, "position") : 0,
  });
  const body =
    intent === "create"
      ? { action: "create", site_id: siteId, form_key: formText(form, "form_key"), ...fields() }
      : intent === "update"
        ? { action: "update", id: formNumber(form, "id"), ...fields() }
        : intent === "disable" || intent === "enable"
          ? { action: intent, id: formNumber(form, "id") }
          : null;
  if (!body) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.changePackage, body);
  if (!result.ok) {
    const texts = staffTexts().packages;
    const error = "amount" in body && Number.isNaN(body.amount) ? texts.badAmount : result.message;
    return data({ intent, error, typed: Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string")) }, { status: result.status });
  }
  const page = `/staff/packages?site=${Number.isNaN(siteId) ? "" : siteId}`;
  if (result.data.replay) throw redirect(`${page}&done=replay`);
  if (body.action === "create" && "credits" in body) throw redirect(`${page}&done=created&credits=${body.credits}&amount=${body.amount}&currency=${body.currency}&country=${body.country}`);
  throw redirect(`${page}&done=${body.action}d&id=${"id" in body ? body.id : ""}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

function price(pkg: Pick<PackageRow, "amount" | "currency">): string {
  return `${(pkg.amount / 100).toFixed(2)} ${pkg.currency}`;
}

/** What the last write did, in words. */
function doneText(t: TFunction, done: { what: string | null; id: number }, search: URLSearchParams): string | null {
  switch (done.what) {
    case "created":
      return t("packages.doneCreated", { credits: search.get("credits"), price: `${(Number(search.get("amount")) / 100).toFixed(2)} ${search.get("currency")}`, country: search.get("country") });
    case "updated":
      return t("packages.doneUpdated", { id: done.id });
    case "disabled":
      return t("packages.doneDisabled", { id: done.id });
    case "enabled":
      return t("packages.doneEnabled", { id: done.id });
    case "replay":
      return t("packages.doneReplay");
    default:
      return null;
  }
}

export default function StaffPackages() {
  const { texts, list, editing, done, ending, formKey } = useLoaderData<typeof loader>();
  const t = useStaffT(useMemo(() => ({ packages: texts }), [texts]));
  const [search] = useSearchParams();
  const doneMessage = doneText(t, done, search);
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const c = texts.columns;
  const site = list.site;
  // After a refusal the form shows what was typed; else the package being changed, or an empty new one.
  const typed = refused && (refused.intent === "create" || refused.intent === "update") ? refused.typed : null;
  const value = (name: keyof PackageRow, fallback: string) => typed?.[name] ?? (editing ? (name === "amount" ? (editing.amount / 100).toFixed(2) : String(editing[name] ?? "")) : fallback);
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-2">
        <StaffField id="packages-site" label={texts.site}>
          <select id="packages-site" name="site" defaultValue={site?.id} className={staffField}>
            {list.sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </StaffField>
        <Button size="md" variant="neutral">
          {texts.show}
        </Button>
      </Form>
      <div className="mt-4">{refused ? <FormAlert>{refused.error}</FormAlert> : doneMessage ? <Notice testId="staff-packages-done">{doneMessage}</Notice> : null}</div>
      {list.packages.length === 0 ? (
        <p className="mt-4 text-gray-700">{texts.empty}</p>
      ) : (
        <StaffTable testId="staff-packages" headings={[c.country, c.credits, c.price, c.mark, c.position, c.state, c.payments, c.actions]} className="mt-4">
          {list.packages.map((pkg) => (
            <tr key={pkg.id} data-testid="staff-package">
              <td className="px-4 py-3">{pkg.country}</td>
              <td className="px-4 py-3 tabular-nums">{pkg.credits}</td>
              <td className="px-4 py-3 tabular-nums">{price(pkg)}</td>
              <td className="px-4 py-3">{texts.marks[pkg.mark ?? "none"]}</td>
              <td className="px-4 py-3 tabular-nums">{pkg.position}</td>
              <td className="px-4 py-3">{pkg.active ? texts.onSale : texts.ended}</td>
              <td className="px-4 py-3 tabular-nums">{pkg.payments}</td>
              <td className="px-4 py-3">
                <div className="flex flex-wrap items-center gap-3">
                  <Link to={`/staff/packages?site=${site?.id ?? ""}&edit=${pkg.id}#package-form`} className="font-semibold underline" aria-label={`${texts.edit} ${pkg.credits} ${c.credits}, ${pkg.country}, ${price(pkg)}`}>
                    {texts.edit}
                  </Link>
                  {pkg.active ? (
                    <ButtonLink to={`/staff/packages?site=${site?.id ?? ""}&end=${pkg.id}`} preventScrollReset size="sm" variant="neutral" aria-label={`${texts.disable} ${pkg.credits} ${c.credits}, ${pkg.country}, ${price(pkg)}`}>
                      {texts.disable}
                    </ButtonLink>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="enable" />
                      <input type="hidden" name="id" value={pkg.id} />
                      <input type="hidden" name="site_id" value={site?.id ?? ""} />
                      <Button size="sm" variant="neutral" disabled={busy} aria-label={`${texts.enable}: ${pkg.credits} ${c.credits}, ${pkg.country}, ${price(pkg)}`}>
                        {texts.enable}
                      </Button>
                    </Form>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </StaffTable>
      )}
      {site ? (
        <div className="mt-6 max-w-xl" id="package-form">
          <StaffCard title={editing ? t("packages.editTitle", { id: editing.id }) : texts.createTitle} testId="staff-package-form">
            <Form method="post" className="grid gap-3 sm:grid-cols-2" key={editing?.id ?? formKey}>
              <input type="hidden" name="intent" value={editing ? "update" : "create"} />
              {editing ? null : <input type="hidden" name="form_key" value={formKey} />}
              <input type="hidden" name="site_id" value={site.id} />
              {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
              <StaffField id="package-country" label={texts.country}>
                <select id="package-country" name="country" defaultValue={value("country", site.countries[0] ?? "")} className={staffField}>
                  {site.countries.map((country) => (
                    <option key={country} value={country}>
                      {country}
                    </option>
                  ))}
                </select>
              </StaffField>
              <StaffField id="package-credits" label={texts.credits}>
                <input id="package-credits" name="credits" type="number" min={1} max={100000} required defaultValue={value("credits", "")} className={staffField} />
              </StaffField>
              <StaffField id="package-amount" label={texts.amount} hint={texts.amountHint}>
                <input id="package-amount" name="amount" required inputMode="decimal" pattern="\d{1,6}([.,]\d{1,2})?" defaultValue={value("amount", "")} className={staffField} />
              </StaffField>
              <StaffField id="package-currency" label={texts.currency}>
                <input id="package-currency" name="currency" required maxLength={3} autoComplete="off" defaultValue={value("currency", "EUR")} className={staffField} />
              </StaffField>
              <StaffField id="package-mark" label={texts.mark}>
                <select id="package-mark" name="mark" defaultValue={value("mark", "")} className={staffField}>
                  <option value="">{texts.marks.none}</option>
                  <option value="most_chosen">{texts.marks.most_chosen}</option>
                  <option value="best_value">{texts.marks.best_value}</option>
                </select>
              </StaffField>
              <StaffField id="package-position" label={texts.position}>
                <input id="package-position" name="position" type="number" min={0} max={1000} defaultValue={value("position", "0")} className={staffField} />
              </StaffField>
              <div className="flex items-center gap-3 sm:col-span-2">
                <Button size="md" disabled={busy}>
                  {editing ? texts.save : texts.create}
                </Button>
                {editing ? (
                  <Link to={`/staff/packages?site=${site.id}`} className="text-sm font-semibold underline">
                    {texts.cancel}
                  </Link>
                ) : null}
              </div>
            </Form>
          </StaffCard>
        </div>
      ) : null}
      {ending && site ? (
        <Modal title={t("packages.confirmTitle")} titleClassName="text-xl font-bold text-gray-900" closeLabel={texts.cancel} closeHref={`/staff/packages?site=${site.id}`} size="md" testId="staff-confirm">
          <p className="mt-2 text-sm text-gray-700" data-testid="staff-confirm-summary">
            {t("packages.confirmSummary", { credits: ending.credits, price: price(ending), country: ending.country, payments: ending.payments })}
          </p>
          <Form method="post" className="mt-4 flex flex-wrap gap-2">
            <input type="hidden" name="intent" value="disable" />
            <input type="hidden" name="id" value={ending.id} />
            <input type="hidden" name="site_id" value={site.id} />
            <Button size="md" variant="danger" disabled={busy}>
              {t("packages.confirmSubmit")}
            </Button>
            <ButtonLink to={`/staff/packages?site=${site.id}`} replace preventScrollReset size="md" variant="neutral">
              {texts.cancel}
            </ButtonLink>
          </Form>
        </Modal>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
