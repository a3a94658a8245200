import { may } from "#contract/endpoints/may";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import type { StaffMemberDetail } from "#contract/staff-moderation";
import { apiFor } from "~/utils/api.server";
import { formConstraint } from "~/utils/form-constraint";
import { pageMeta } from "~/utils/page-title";
import { formatMoney } from "~/features/payments/money";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { staffT } from "~/features/staff/staff-i18n.server";
import { useStaffT } from "~/features/staff/staff-i18n";
import { requireStaff, staffRouteId } from "~/features/staff/staff-api.server";
import { staffWrite } from "~/features/staff/staff-write.server";
import { utcMinute } from "~/features/staff/staff-format";
import { banSchema, creditsSchema, eraseSchema, minorUnitsOf, refundSchema, suspendSchema } from "~/features/staff/member-forms";
import { CreditsForm, EraseConfirm, RefundConfirm, SuspendConfirm, type CheckedIntent, type Confirm, type MemberActionData } from "~/features/staff/member-actions";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { StaffErrorBoundary } from "~/features/staff/staff-error";
import { StaffCard } from "~/features/staff/staff-parts";
import { useFormMountKey } from "~/utils/form-key";
import { endpoints } from "#contract/endpoints/index";

/**
 * A member's page for staff (docs/staff.md Members): profile, photos, status, credits ledger, payments, logins,
 * reports, and the actions the staff member's role allows (the api checks each: role and site). Every action is a
 * plain form; refund, suspend, ban and erase are asked in a dialog with a summary first (`?confirm=`), which without
 * JavaScript is the same dialog rendered open in the page.
 */
const checkedSchemas = { credits: creditsSchema, refund: refundSchema, suspend: suspendSchema, ban: banSchema, erase: eraseSchema } as const;
const plainIntents = ["lift", "hide_profile", "show_profile", "resend_activation", "lift_debit_block"] as const;

function confirmOf(url: URL): Confirm {
  const kind = url.searchParams.get("confirm");
  if (kind === "suspend" || kind === "ban" || kind === "erase") return { kind };
  const paymentId = Number(url.searchParams.get("payment"));
  if (kind === "refund" && Number.isInteger(paymentId) && paymentId > 0) return { kind, paymentId };
  return null;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const id = staffRouteId(params);
  const texts = staffTexts();
  const t = staffT();
  const result = await apiFor(request, context).call(endpoints.staffMember, { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status === 400 ? 404 : result.status });
  const url = new URL(request.url);
  return {
    title: t("members.detail.metaTitle", { id }),
    description: texts.members.lead,
    texts: { members: { detail: texts.members.detail }, reasons: { moderation: texts.reasons.moderation }, reports: { status: texts.reports.status, source: texts.reports.source } },
    constraints: Object.fromEntries(Object.entries(checkedSchemas).map(([intent, schema]) => [intent, formConstraint(schema(t))])) as Record<CheckedIntent, ReturnType<typeof formConstraint>>,
    member: result.data,
    role: staff.role,
    done: { what: url.searchParams.get("done"), delta: Number(url.searchParams.get("delta")) || 0, payment: Number(url.searchParams.get("payment")) || 0 },
    confirm: confirmOf(url),
    // The first day a suspension may end on (the date field's min).
    tomorrow: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    // A booking form's key, new with each rendering: the api books one form once, however often it is sent.
    formKey: crypto.randomUUID(),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const id = staffRouteId(params);
  const t = staffT();
  const formData = await request.formData();
  const intent = formData.get("intent");
  const page = `/staff/members/${id}`;
  if (typeof intent === "string" && intent in checkedSchemas) {
    const checked = intent as CheckedIntent;
    const submission = parseWithZod(formData, { schema: checkedSchemas[checked](t) });
    if (submission.status !== "success") return data<MemberActionData>({ intent: checked, result: submission.reply() }, { status: 400 });
    const value = submission.value;
    const body =
      value.intent === "refund"
        ? { id, action: "refund", payment_id: value.payment_id, amount: minorUnitsOf(value.amount), reason: value.reason, form_key: value.form_key }
        : { id, ...value, intent: undefined, action: value.intent };
    const result = await staffWrite(request, context, endpoints.actOnMember, body);
    if (!result.ok) {
      const fields = Object.fromEntries(Object.entries(result.fields).filter(([name]) => name in value));
      const reply = Object.keys(fields).length ? submission.reply({ fieldErrors: fields }) : submission.reply({ formErrors: [result.message] });
      return data<MemberActionData>({ intent: checked, result: reply }, { status: result.status });
    }
    if (result.data.replay) throw redirect(`${page}?done=replay`);
    if (value.intent === "credits") throw redirect(`${page}?done=credits&delta=${value.delta}`);
    if (value.intent === "refund") throw redirect(`${page}?done=refund&payment=${value.payment_id}`);
    throw redirect(`${page}?done=${value.intent}`);
  }
  const plain = plainIntents.find((name) => name === intent);
  if (!plain) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.actOnMember, { id, action: plain });
  if (!result.ok) return data<MemberActionData>({ intent: "other", error: result.message }, { status: result.status });
  throw redirect(`${page}?done=${plain}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

/** What the last action did, in words ("25 credits booked for Dennis, balance 45"). */
function doneText(t: TFunction, done: { what: string | null; delta: number; payment: number }, member: StaffMemberDetail): string | null {
  const name = member.name;
  switch (done.what) {
    case "credits":
      return t(done.delta > 0 ? "members.detail.creditsBooked" : "members.detail.creditsDeducted", { count: Math.abs(done.delta), name, balance: member.credits });
    case "replay":
      return t("members.detail.replay", { name, balance: member.credits });
    case "refund": {
      const payment = member.payments.find((p) => p.id === done.payment);
      if (!payment?.refund) return null;
      return t("members.detail.refundDone", { amount: formatMoney(payment.refund.amount, payment.currency, "en"), id: payment.id, name, credits: payment.refund.credits, balance: member.credits });
    }
    case "suspend":
      return t("members.detail.suspendDone", { name, until: member.suspension?.until ? utcMinute(member.suspension.until) : "" });
    case "ban":
      return t("members.detail.banDone", { name });
    case "lift":
      return t("members.detail.liftDone", { name });
    case "hide_profile":
      return t("members.detail.hideDone", { name });
    case "show_profile":
      return t("members.detail.showDone", { name });
    case "resend_activation":
      return t("members.detail.resendDone", { email: member.email });
    case "lift_debit_block":
      return t("members.detail.debitDone", { name });
    case "erase":
      return t("members.detail.eraseDone");
    default:
      return null;
  }
}

export default function StaffMember() {
  const { texts, member, role, done, confirm } = useLoaderData<typeof loader>();
  const t = useStaffT(texts);
  const answer = useActionData<MemberActionData>();
  const busy = useNavigation().state !== "idle";
  // After each completed action the credits form mounts again, empty.
  const formKey = useFormMountKey();
  const mayMoney = may(role, "members.money");
  const erased = member.status === "erased";
  const reasonOf = (reason: string) => t(`reasons.moderation.${reason}`, { defaultValue: reason });
  const doneMessage = doneText(t, done, member);
  const status = member.suspension ? (member.suspension.until ? t("members.detail.statusSuspended", { until: utcMinute(member.suspension.until) }) : t("members.detail.statusBanned")) : member.status;
  const refunding = confirm?.kind === "refund" ? member.payments.find((payment) => payment.id === confirm.paymentId && payment.refundable) : undefined;
  return (
    <>
      <p>
        <Link to="/staff/members" className="text-sm">
          ← {t("members.detail.back")}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">
        {member.name} <span className="font-normal text-gray-600">#{member.user_id}</span>
      </h1>
      <p className="mt-1 text-sm text-gray-700">
        {member.email} · {member.site.name} · {t("members.detail.status")}: <span data-testid="staff-member-status">{status}</span> · {t("members.detail.emailConfirmed")}: {member.email_confirmed ? "✓" : "–"}
      </p>
      <div className="mt-4 space-y-2">
        {doneMessage ? <Notice testId="staff-member-done">{doneMessage}</Notice> : null}
        {answer?.intent === "other" ? <FormAlert>{answer.error}</FormAlert> : null}
        {member.suspension ? (
          <p role="status" className="rounded-md bg-red-50 px-4 py-2 text-sm text-red-900 ring-1 ring-red-200" data-testid="staff-member-suspension">
            {member.suspension.until ? t("members.detail.suspension", { until: utcMinute(member.suspension.until), reason: reasonOf(member.suspension.reason) }) : t("members.detail.ban", { reason: reasonOf(member.suspension.reason) })}
          </p>
        ) : null}
        {member.debit_blocked_at ? <p className="rounded-md bg-amber-50 px-4 py-2 text-sm text-gray-900 ring-1 ring-amber-200">{t("members.detail.debitBlocked", { when: utcMinute(member.debit_blocked_at) })}</p> : null}
      </div>

      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <StaffCard title={t("members.detail.profile")}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-gray-600">{t("members.detail.profileStatus")}</dt>
            <dd data-testid="staff-profile-status">{member.profile.status}</dd>
            <dt className="text-gray-600">{t("members.detail.born")}</dt>
            <dd>
              {member.profile.date_of_birth} · {member.profile.gender}
            </dd>
            <dt className="text-gray-600">{t("members.detail.place")}</dt>
            <dd>{[member.profile.city, member.profile.region, member.profile.country].filter(Boolean).join(", ")}</dd>
            {member.profile.fictional ? (
              <>
                <dt className="text-gray-600">{t("members.detail.fictional")}</dt>
                <dd>✓</dd>
              </>
            ) : null}
          </dl>
          <p className="mt-2 whitespace-pre-line text-sm text-gray-900">{member.profile.about_me}</p>
          <h3 className="mt-3 text-sm font-semibold text-gray-900">{t("members.detail.photos")}</h3>
          {member.photos.length === 0 ? (
            <p className="text-sm text-gray-700">{t("members.detail.noPhotos")}</p>
          ) : (
            <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
              {member.photos.map((photo) => (
                <li key={photo.id} className="text-xs text-gray-700" data-testid="staff-member-photo">
                  {photo.status === "rejected" ? (
                    // A rejected photo's files are deleted (docs/staff.md): a marked place, not a broken image.
                    <div className="flex aspect-square w-full items-center justify-center rounded-md bg-gray-100 p-1 text-center text-gray-700 ring-1 ring-gray-200">{t("members.detail.photoRejected")}</div>
                  ) : (
                    <img src={photo.thumb_url} alt={`${member.name} ${photo.id}`} width={120} height={120} className="aspect-square w-full rounded-md object-cover" />
                  )}
                  {photo.status}
                  {photo.reviewed ? "" : `, ${t("members.detail.notReviewed")}`}
                </li>
              ))}
            </ul>
          )}
        </StaffCard>

        <StaffCard title={t("members.detail.credits", { credits: member.credits, sum: member.ledger_sum })} testId="staff-member-credits">
          {member.ledger.length === 0 ? (
            <p className="text-sm text-gray-700">{t("members.detail.noLedger")}</p>
          ) : (
            <div className="max-h-72 overflow-auto" tabIndex={0}>
              <table className="min-w-full text-left text-xs" data-testid="staff-member-ledger">
                <caption className="sr-only">{t("members.detail.ledger")}</caption>
                <thead>
                  <tr className="text-gray-700">
                    {Object.values(texts.members.detail.ledgerColumns).map((heading) => (
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
          {mayMoney && !erased ? <CreditsForm key={formKey} t={t} /> : null}
        </StaffCard>

        <StaffCard title={t("members.detail.payments")}>
          {member.payments.length === 0 ? (
            <p className="text-sm text-gray-700">{t("members.detail.noPayments")}</p>
          ) : (
            <div className="overflow-x-auto" tabIndex={0}>
              <table className="min-w-full text-left text-xs" data-testid="staff-member-payments">
                <thead>
                  <tr className="text-gray-700">
                    {Object.values(texts.members.detail.paymentColumns).map((heading) => (
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
                      <td className="py-1 pr-3">
                        {payment.status}
                        {payment.refund ? <span className="block text-gray-600">{t("members.detail.refunded", { amount: formatMoney(payment.refund.amount, payment.currency, "en"), reason: payment.refund.reason ?? "" })}</span> : null}
                      </td>
                      <td className="py-1 pr-3 tabular-nums">{formatMoney(payment.amount, payment.currency, "en")}</td>
                      <td className="py-1 pr-3 tabular-nums">{payment.credits}</td>
                      <td className="py-1 pr-3">
                        {payment.refundable && mayMoney ? (
                          <ButtonLink to={`?confirm=refund&payment=${payment.id}`} preventScrollReset size="sm" variant="neutral" aria-label={`${t("members.detail.refund")} ${payment.id}`}>
                            {t("members.detail.refund")}
                          </ButtonLink>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {mayMoney ? <p className="mt-2 text-xs text-gray-600">{t("members.detail.refundHint")}</p> : null}
            </div>
          )}
        </StaffCard>

        <StaffCard title={t("members.detail.logins")}>
          {member.logins.length === 0 ? (
            <p className="text-sm text-gray-700">{t("members.detail.noLogins")}</p>
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
          <p className="mt-2 text-sm text-gray-700">{t("members.detail.conversations", { count: member.conversations })}</p>
        </StaffCard>

        <StaffCard title={t("members.detail.reportsAbout")}>
          <ReportList reports={member.reports_about} t={t} />
        </StaffCard>
        <StaffCard title={t("members.detail.reportsBy")}>
          <ReportList reports={member.reports_by} t={t} />
        </StaffCard>
      </div>

      {erased ? null : (
        <section className="mt-6" aria-labelledby="member-actions">
          <h2 id="member-actions" className="text-lg font-semibold text-gray-900">
            {t("members.detail.actions")}
          </h2>
          <div className="mt-3 flex flex-wrap gap-2">
            <ButtonLink to="?confirm=suspend" preventScrollReset size="md" variant="danger">
              {t("members.detail.suspendOpen")}
            </ButtonLink>
            <ButtonLink to="?confirm=ban" preventScrollReset size="md" variant="danger">
              {t("members.detail.banOpen")}
            </ButtonLink>
            {may(role, "members.erase") ? (
              <ButtonLink to="?confirm=erase" preventScrollReset size="md" variant="danger">
                {t("members.detail.eraseOpen")}
              </ButtonLink>
            ) : null}
          </div>
          <Form method="post" className="mt-3 flex flex-wrap gap-2">
            {member.suspension ? (
              <Button name="intent" value="lift" size="md" disabled={busy}>
                {t("members.detail.lift")}
              </Button>
            ) : null}
            {member.profile.status === "active" ? (
              <Button name="intent" value="hide_profile" size="md" variant="neutral" disabled={busy}>
                {t("members.detail.hideProfile")}
              </Button>
            ) : member.suspension ? null : (
              <Button name="intent" value="show_profile" size="md" variant="neutral" disabled={busy}>
                {t("members.detail.showProfile")}
              </Button>
            )}
            {member.email_confirmed ? null : (
              <Button name="intent" value="resend_activation" size="md" variant="neutral" disabled={busy}>
                {t("members.detail.resend")}
              </Button>
            )}
            {member.debit_blocked_at && mayMoney ? (
              <Button name="intent" value="lift_debit_block" size="md" variant="neutral" disabled={busy}>
                {t("members.detail.liftDebit")}
              </Button>
            ) : null}
          </Form>
        </section>
      )}
      {refunding && mayMoney ? <RefundConfirm t={t} member={member} payment={refunding} /> : null}
      {!erased && (confirm?.kind === "suspend" || confirm?.kind === "ban") ? <SuspendConfirm t={t} member={member} kind={confirm.kind} /> : null}
      {!erased && confirm?.kind === "erase" && may(role, "members.erase") ? <EraseConfirm t={t} member={member} /> : null}
    </>
  );
}

type ReportRow = StaffMemberDetail["reports_about"][number];

function ReportList({ reports, t }: { reports: ReportRow[]; t: TFunction }) {
  if (reports.length === 0) return <p className="text-sm text-gray-700">{t("members.detail.noReports")}</p>;
  return (
    <ul className="space-y-1 text-sm">
      {reports.map((report) => (
        <li key={report.id}>
          <Link to={`/staff/reports/${report.id}`} className="font-semibold">
            #{report.id}
          </Link>{" "}
          {t(`reports.source.${report.source}`)} · {report.reason} · {t(`reports.status.${report.status}`)} · {utcMinute(report.created_at)}
        </li>
      ))}
    </ul>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
