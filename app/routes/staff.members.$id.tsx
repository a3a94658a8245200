import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { StaffMemberDetail } from "#contract/staff-moderation";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { formatMoney } from "~/features/payments/money";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { ReasonSelect, StaffCard } from "~/features/staff/staff-parts";

/**
 * A member's page for staff: profile, photos, status, credits ledger, payments, logins, reports, and
 * the actions the staff member's role allows (the api checks each: role and site). Every action is a plain form.
 */
function memberId(params: { id?: string }): number {
  if (!params.id || !/^\d{1,9}$/.test(params.id)) throw data(null, { status: 404 });
  return Number(params.id);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const id = memberId(params);
  const texts = staffTexts();
  const result = await apiFor(request, context).get("/api/staff/member.php", StaffMemberDetail, { id });
  if (!result.ok) throw new Response(null, { status: result.status === 400 ? 404 : result.status });
  return {
    title: fill(texts.members.detail.metaTitle, { id }),
    description: texts.members.lead,
    texts: { ...texts.members.detail, reasons: texts.reasons.moderation, reportStatus: texts.reports.status, reportSource: texts.reports.source },
    member: result.data,
    role: staff.role,
    done: new URL(request.url).searchParams.get("done") === "1",
    // The money form's key, new with each rendering: the api books one form once, however often it is sent.
    formKey: crypto.randomUUID(),
  };
}

const intents = ["suspend", "ban", "lift", "hide_profile", "show_profile", "resend_activation", "credits", "refund", "lift_debit_block", "erase"] as const;

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const id = memberId(params);
  const form = await request.formData();
  const intent = intents.find((i) => i === form.get("intent"));
  if (!intent) throw data(null, { status: 400 });
  const body: Record<string, unknown> = { id, action: intent };
  if (intent === "suspend" || intent === "ban") body.reason = formText(form, "reason");
  if (intent === "suspend") body.until = formText(form, "until");
  if (intent === "credits") Object.assign(body, { delta: formNumber(form, "delta"), note: formText(form, "note"), form_key: formText(form, "form_key") });
  if (intent === "refund") body.payment_id = formNumber(form, "payment_id");
  if (intent === "erase") body.confirm = formText(form, "confirm");
  const result = await staffWrite(request, context, "/api/staff/member.php", StaffMemberDetail, body);
  if (!result.ok) return data({ intent, error: result.message }, { status: result.status });
  throw redirect(`/staff/members/${id}?done=1`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffMember() {
  const { texts, member, role, done, formKey } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const error = (...intent: string[]) => (failed && intent.includes(failed.intent) ? <FormAlert>{failed.error}</FormAlert> : null);
  const mayMoney = role === "admin" || role === "support";
  const erased = member.status === "erased";
  const reasonOf = (reason: string) => (texts.reasons as Record<string, string>)[reason] ?? reason;
  return (
    <>
      <p>
        <Link to="/staff/members" className="text-sm">
          ← {texts.back}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">
        {member.name} <span className="font-normal text-gray-600">#{member.user_id}</span>
      </h1>
      <p className="mt-1 text-sm text-gray-700">
        {member.email} · {member.site.name} · {texts.status}: <span data-testid="staff-member-status">{member.status}</span> · {texts.emailConfirmed}: {member.email_confirmed ? "✓" : "–"}
      </p>
      <div className="mt-4 space-y-2">
        {done ? <Notice testId="staff-member-done">{texts.done}</Notice> : null}
        {member.suspension ? (
          <p role="status" className="rounded-md bg-red-50 px-4 py-2 text-sm text-red-900 ring-1 ring-red-200" data-testid="staff-member-suspension">
            {member.suspension.until ? fill(texts.suspension, { until: utcMinute(member.suspension.until), reason: reasonOf(member.suspension.reason) }) : fill(texts.ban, { reason: reasonOf(member.suspension.reason) })}
          </p>
        ) : null}
        {member.debit_blocked_at ? <p className="rounded-md bg-amber-50 px-4 py-2 text-sm text-gray-900 ring-1 ring-amber-200">{fill(texts.debitBlocked, { when: utcMinute(member.debit_blocked_at) })}</p> : null}
      </div>

      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <StaffCard title={texts.profile}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-gray-600">{texts.profileStatus}</dt>
            <dd data-testid="staff-profile-status">{member.profile.status}</dd>
            <dt className="text-gray-600">{texts.born}</dt>
            <dd>
              {member.profile.date_of_birth} · {member.profile.gender}
            </dd>
            <dt className="text-gray-600">{texts.place}</dt>
            <dd>{[member.profile.city, member.profile.region, member.profile.country].filter(Boolean).join(", ")}</dd>
            {member.profile.fictional ? (
              <>
                <dt className="text-gray-600">{texts.fictional}</dt>
                <dd>✓</dd>
              </>
            ) : null}
          </dl>
          <p className="mt-2 whitespace-pre-line text-sm text-gray-900">{member.profile.about_me}</p>
          <h3 className="mt-3 text-sm font-semibold text-gray-900">{texts.photos}</h3>
          {member.photos.length === 0 ? (
            <p className="text-sm text-gray-700">{texts.noPhotos}</p>
          ) : (
            <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
              {member.photos.map((photo) => (
                <li key={photo.id} className="text-xs text-gray-700">
                  <img src={photo.thumb_url} alt={`${member.name} ${photo.id}`} width={120} height={120} className={`aspect-square w-full rounded-md object-cover ${photo.status === "rejected" ? "opacity-40" : ""}`} />
                  {photo.status}
                  {photo.reviewed ? "" : `, ${texts.notReviewed}`}
                </li>
              ))}
            </ul>
          )}
        </StaffCard>

        <StaffCard title={fill(texts.credits, { credits: member.credits, sum: member.ledger_sum })} testId="staff-member-credits">
          {member.ledger.length === 0 ? (
            <p className="text-sm text-gray-700">{texts.noLedger}</p>
          ) : (
            <div className="max-h-72 overflow-auto">
              <table className="min-w-full text-left text-xs" data-testid="staff-member-ledger">
                <caption className="sr-only">{texts.ledger}</caption>
                <thead>
                  <tr className="text-gray-700">
                    {Object.values(texts.ledgerColumns).map((heading) => (
                      <th key={heading} scope="col" className="py-1 pr-3 font-semibold">
                        {heading}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {member.ledger.map((entry) => (
                    <tr key={entry.id} className="border-t border-gray-100">
                      <td className="whitespace-nowrap py-1 pr-3">{utcMinute(entry.at)}</td>
                      <td className="py-1 pr-3 tabular-nums">{entry.delta > 0 ? `+${entry.delta}` : entry.delta}</td>
                      <td className="py-1 pr-3 tabular-nums">{entry.balance_after}</td>
                      <td className="py-1 pr-3">{entry.reason}</td>
                      <td className="py-1 pr-3">{entry.reference ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {mayMoney && !erased ? (
            <Form method="post" className="mt-3 grid gap-2 sm:grid-cols-[8rem_1fr_auto] sm:items-end">
              <input type="hidden" name="intent" value="credits" />
              <input type="hidden" name="form_key" value={formKey} />
              <div>
                <label htmlFor="credits-delta" className="block text-xs font-medium text-gray-700">
                  {texts.delta}
                </label>
                <input id="credits-delta" name="delta" type="number" step={1} required className={staffField} />
              </div>
              <div>
                <label htmlFor="credits-note" className="block text-xs font-medium text-gray-700">
                  {texts.note}
                </label>
                <input id="credits-note" name="note" required minLength={3} maxLength={200} className={staffField} />
              </div>
              <Button size="md" disabled={busy}>
                {texts.creditsSubmit}
              </Button>
            </Form>
          ) : null}
          {error("credits")}
        </StaffCard>

        <StaffCard title={texts.payments}>
          {member.payments.length === 0 ? (
            <p className="text-sm text-gray-700">{texts.noPayments}</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="min-w-full text-left text-xs" data-testid="staff-member-payments">
                <thead>
                  <tr className="text-gray-700">
                    {Object.values(texts.paymentColumns).map((heading) => (
                      <th key={heading} scope="col" className="py-1 pr-3 font-semibold">
                        {heading}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {member.payments.map((payment) => (
                    <tr key={payment.id} className="border-t border-gray-100">
                      <td className="py-1 pr-3 tabular-nums">{payment.id}</td>
                      <td className="whitespace-nowrap py-1 pr-3">{utcMinute(payment.created_at)}</td>
                      <td className="py-1 pr-3">
                        {payment.provider}/{payment.method}
                      </td>
                      <td className="py-1 pr-3">{payment.status}</td>
                      <td className="py-1 pr-3 tabular-nums">{formatMoney(payment.amount, payment.currency, "en")}</td>
                      <td className="py-1 pr-3 tabular-nums">{payment.credits}</td>
                      <td className="py-1 pr-3">
                        {payment.refundable && mayMoney ? (
                          <Form method="post">
                            <input type="hidden" name="intent" value="refund" />
                            <input type="hidden" name="payment_id" value={payment.id} />
                            <Button size="sm" variant="neutral" disabled={busy} aria-label={`${texts.refund} ${payment.id}`}>
                              {texts.refund}
                            </Button>
                          </Form>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {mayMoney ? <p className="mt-2 text-xs text-gray-600">{texts.refundHint}</p> : null}
            </div>
          )}
          {error("refund")}
        </StaffCard>

        <StaffCard title={texts.logins}>
          {member.logins.length === 0 ? (
            <p className="text-sm text-gray-700">{texts.noLogins}</p>
          ) : (
            <ul className="text-xs text-gray-800">
              {member.logins.map((login) => (
                <li key={login.at}>
                  {utcMinute(login.at)}
                  {login.client_ip ? ` · ${login.client_ip}` : ""}
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-sm text-gray-700">{fill(texts.conversations, { count: member.conversations })}</p>
        </StaffCard>

        <StaffCard title={texts.reportsAbout}>
          <ReportList reports={member.reports_about} none={texts.noReports} status={texts.reportStatus} source={texts.reportSource} />
        </StaffCard>
        <StaffCard title={texts.reportsBy}>
          <ReportList reports={member.reports_by} none={texts.noReports} status={texts.reportStatus} source={texts.reportSource} />
        </StaffCard>
      </div>

      {erased ? null : (
        <section className="mt-6" aria-labelledby="member-actions">
          <h2 id="member-actions" className="text-lg font-semibold text-gray-900">
            {texts.actions}
          </h2>
          <div className="mt-3 grid gap-4 lg:grid-cols-2">
            <StaffCard title={texts.suspendTitle}>
              <Form method="post" className="space-y-2">
                <ReasonSelect id="suspend-reason" label={texts.reason} reasons={texts.reasons} />
                <div>
                  <label htmlFor="suspend-until" className="block text-sm font-medium text-gray-700">
                    {texts.suspendUntil}
                  </label>
                  <input id="suspend-until" name="until" type="date" required className={staffField} />
                </div>
                <Button name="intent" value="suspend" size="md" variant="danger" disabled={busy}>
                  {texts.suspendSubmit}
                </Button>
              </Form>
              {error("suspend")}
            </StaffCard>
            <StaffCard title={texts.banTitle}>
              <Form method="post" className="space-y-2">
                <ReasonSelect id="ban-reason" label={texts.reason} reasons={texts.reasons} />
                <Button name="intent" value="ban" size="md" variant="danger" disabled={busy}>
                  {texts.banSubmit}
                </Button>
              </Form>
              {error("ban")}
            </StaffCard>
            <StaffCard title={texts.actions}>
              <Form method="post" className="flex flex-wrap gap-2">
                {member.suspension ? (
                  <Button name="intent" value="lift" size="md" disabled={busy}>
                    {texts.lift}
                  </Button>
                ) : null}
                {member.profile.status === "active" ? (
                  <Button name="intent" value="hide_profile" size="md" variant="neutral" disabled={busy}>
                    {texts.hideProfile}
                  </Button>
                ) : member.suspension ? null : (
                  <Button name="intent" value="show_profile" size="md" variant="neutral" disabled={busy}>
                    {texts.showProfile}
                  </Button>
                )}
                {member.email_confirmed ? null : (
                  <Button name="intent" value="resend_activation" size="md" variant="neutral" disabled={busy}>
                    {texts.resend}
                  </Button>
                )}
                {member.debit_blocked_at && mayMoney ? (
                  <Button name="intent" value="lift_debit_block" size="md" variant="neutral" disabled={busy}>
                    {texts.liftDebit}
                  </Button>
                ) : null}
              </Form>
              {error("lift", "hide_profile", "show_profile", "resend_activation", "lift_debit_block")}
            </StaffCard>
            {role === "admin" ? (
              <StaffCard title={texts.eraseTitle}>
                <p className="text-sm text-gray-700">{texts.eraseHint}</p>
                <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="erase" />
                  <div>
                    <label htmlFor="erase-confirm" className="block text-sm font-medium text-gray-700">
                      {texts.eraseConfirm}
                    </label>
                    <input id="erase-confirm" name="confirm" required pattern="ERASE" autoComplete="off" className={staffField} />
                  </div>
                  <Button size="md" variant="danger" disabled={busy}>
                    {texts.eraseSubmit}
                  </Button>
                </Form>
                {error("erase")}
              </StaffCard>
            ) : null}
          </div>
        </section>
      )}
    </>
  );
}

type ReportRow = StaffMemberDetail["reports_about"][number];

function ReportList({ reports, none, status, source }: { reports: ReportRow[]; none: string; status: Record<string, string>; source: Record<string, string> }) {
  if (reports.length === 0) return <p className="text-sm text-gray-700">{none}</p>;
  return (
    <ul className="space-y-1 text-sm">
      {reports.map((report) => (
        <li key={report.id}>
          <Link to={`/staff/reports/${report.id}`} className="font-semibold">
            #{report.id}
          </Link>{" "}
          {source[report.source]} · {report.reason} · {status[report.status]} · {utcMinute(report.created_at)}
        </li>
      ))}
    </ul>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
