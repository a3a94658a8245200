import type { SubmissionResult } from "@conform-to/react";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import type { StaffMemberDetail } from "#contract/staff-moderation";
import { moderationReasons } from "#contract/moderation-reasons";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert, InputField, SelectField, TextareaField } from "~/components/ui/form-fields";
import type { Constraint, FieldView } from "~/components/ui/form-view";
import { Modal } from "~/components/ui/modal";
import { useValidatedForm, type SchemaLoader } from "~/components/ui/validated-form";
import { formatMoney } from "~/features/payments/money";
import { utcMinute } from "./staff-format";
import type { z } from "zod";

/** The member page's forms that conform checks (app/features/staff/member-forms.ts), by their intent. */
export type CheckedIntent = "credits" | "refund" | "suspend" | "ban" | "erase";
export type MemberActionData = { intent: CheckedIntent; result: SubmissionResult<string[]> } | { intent: "other"; error: string };
/** The step that asks for confirmation (a Modal, or with JavaScript off the same dialog rendered open in the page). */
export type Confirm = { kind: "suspend" | "ban" | "erase" } | { kind: "refund"; paymentId: number } | null;

const schemas = {
  credits: () => import("./member-forms").then((m) => m.creditsSchema),
  refund: () => import("./member-forms").then((m) => m.refundSchema),
  suspend: () => import("./member-forms").then((m) => m.suspendSchema),
  ban: () => import("./member-forms").then((m) => m.banSchema),
  erase: () => import("./member-forms").then((m) => m.eraseSchema),
} satisfies Record<CheckedIntent, SchemaLoader<z.ZodObject>>;
type SchemaOf<I extends CheckedIntent> = ReturnType<Awaited<ReturnType<(typeof schemas)[I]>>>;

type PageData = { constraints: Record<CheckedIntent, Record<string, Constraint>>; formKey: string; tomorrow: string };

/** One checked form of the page: conform with its schema, its last answer only when it was this form's. */
function useMemberForm<I extends CheckedIntent>(intent: I, t: TFunction, defaultValue?: Record<string, unknown>) {
  const { constraints } = useLoaderData<PageData>();
  const answer = useActionData<MemberActionData>();
  const navigation = useNavigation();
  const lastResult = answer?.intent === intent ? answer.result : undefined;
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const schema = schemas[intent] as SchemaLoader<SchemaOf<I>>;
  return { busy, ...useValidatedForm({ id: `member-${intent}`, schema, constraint: constraints[intent], lastResult, defaultValue, t }) };
}

function FormErrors({ form }: { form: { errors: string[] | undefined; errorId: string } }) {
  return form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null;
}

/** Grant or deduct credits: cleared after each booking (its key, `formKey`, is new with each rendering). */
export function CreditsForm({ t }: { t: TFunction }) {
  const { formKey } = useLoaderData<PageData>();
  const { form, fields, formProps, validation, busy } = useMemberForm("credits", t);
  return (
    <Form method="post" preventScrollReset className="mt-3 grid gap-2 sm:grid-cols-[9rem_1fr_auto] sm:items-end" {...formProps}>
      {validation}
      <input type="hidden" name="intent" value="credits" />
      <input type="hidden" name="form_key" value={formKey} />
      <InputField field={fields.delta} label={t("members.detail.delta")} type="number" inputMode="numeric" />
      <InputField field={fields.note} label={t("members.detail.note")} type="text" />
      <Button size="md" disabled={busy}>
        {t("members.detail.creditsSubmit")}
      </Button>
      <div className="sm:col-span-3">
        <FormErrors form={form} />
      </div>
    </Form>
  );
}

function ConfirmModal({ title, summary, children, closeLabel }: { title: string; summary: ReactNode; closeLabel: string; children: ReactNode }) {
  return (
    <Modal title={title} titleClassName="text-xl font-bold text-gray-900" closeLabel={closeLabel} closeHref="." size="md" testId="staff-confirm">
      <p className="mt-2 text-sm text-gray-700" data-testid="staff-confirm-summary">
        {summary}
      </p>
      <div className="mt-4">{children}</div>
    </Modal>
  );
}

function CancelLink({ t }: { t: TFunction }) {
  return (
    <ButtonLink to="." replace preventScrollReset variant="neutral" size="md">
      {t("members.detail.cancel")}
    </ButtonLink>
  );
}

type Payment = StaffMemberDetail["payments"][number];

/** The refund's confirmation: what was paid, the amount to pay back (the whole by default), the reason. */
export function RefundConfirm({ t, member, payment }: { t: TFunction; member: StaffMemberDetail; payment: Payment }) {
  const { formKey } = useLoaderData<PageData>();
  const whole = (payment.amount / 100).toFixed(2);
  const { form, fields, formProps, validation, busy } = useMemberForm("refund", t, { amount: whole });
  const paid = formatMoney(payment.amount, payment.currency, "en");
  return (
    <ConfirmModal
      title={t("members.detail.refundTitle", { id: payment.id })}
      closeLabel={t("members.detail.cancel")}
      summary={t("members.detail.refundSummary", { name: member.name, amount: paid, when: utcMinute(payment.paid_at ?? payment.created_at), credits: payment.credits, method: `${payment.provider}/${payment.method}` })}
    >
      <Form method="post" preventScrollReset className="space-y-3" {...formProps}>
        {validation}
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="form_key" value={formKey} />
        <input type="hidden" name="payment_id" value={payment.id} />
        <FormErrors form={form} />
        <InputField
          field={fields.amount}
          label={t("members.detail.refundAmount", { currency: payment.currency })}
          type="text"
          inputMode="decimal"
          hint={<p className="mt-1 text-xs text-gray-600">{t("members.detail.refundAmountHint", { amount: paid })}</p>}
        />
        <TextareaField field={fields.reason} label={t("members.detail.refundReason")} rows={3} />
        <div className="flex flex-wrap gap-2">
          <Button size="md" variant="danger" disabled={busy}>
            {t("members.detail.refundSubmit")}
          </Button>
          <CancelLink t={t} />
        </div>
      </Form>
    </ConfirmModal>
  );
}

function reasonOptions(t: TFunction) {
  return moderationReasons.map((reason) => ({ value: reason, label: t(`reasons.moderation.${reason}`) }));
}

/** Suspend or ban: the reason (none chosen beforehand) and, for a suspension, its last day; then the measure. */
export function SuspendConfirm({ t, member, kind }: { t: TFunction; member: StaffMemberDetail; kind: "suspend" | "ban" }) {
  const { form, fields, formProps, validation, busy } = useMemberForm(kind, t);
  const { tomorrow } = useLoaderData<PageData>();
  return (
    <ConfirmModal
      title={t(kind === "suspend" ? "members.detail.suspendConfirmTitle" : "members.detail.banConfirmTitle", { name: member.name })}
      closeLabel={t("members.detail.cancel")}
      summary={t(kind === "suspend" ? "members.detail.suspendSummary" : "members.detail.banSummary", { name: member.name, email: member.email })}
    >
      <Form method="post" preventScrollReset className="space-y-3" {...formProps}>
        {validation}
        <input type="hidden" name="intent" value={kind} />
        <FormErrors form={form} />
        <SelectField field={fields.reason} label={t("members.detail.reason")} options={reasonOptions(t)} placeholder={t("members.detail.reasonPlaceholder")} />
        {kind === "suspend" && "until" in fields ? <InputField field={fields.until as FieldView} label={t("members.detail.suspendUntil")} type="date" min={tomorrow} /> : null}
        <div className="flex flex-wrap gap-2">
          <Button size="md" variant="danger" disabled={busy}>
            {t(kind === "suspend" ? "members.detail.suspendSubmit" : "members.detail.banSubmit")}
          </Button>
          <CancelLink t={t} />
        </div>
      </Form>
    </ConfirmModal>
  );
}

export function EraseConfirm({ t, member }: { t: TFunction; member: StaffMemberDetail }) {
  const { form, fields, formProps, validation, busy } = useMemberForm("erase", t);
  return (
    <ConfirmModal title={t("members.detail.eraseConfirmTitle", { name: member.name })} closeLabel={t("members.detail.cancel")} summary={t("members.detail.eraseSummary", { name: member.name, email: member.email })}>
      <Form method="post" preventScrollReset className="space-y-3" {...formProps}>
        {validation}
        <input type="hidden" name="intent" value="erase" />
        <FormErrors form={form} />
        <InputField field={fields.confirm} label={t("members.detail.eraseConfirm")} type="text" autoComplete="off" />
        <div className="flex flex-wrap gap-2">
          <Button size="md" variant="danger" disabled={busy}>
            {t("members.detail.eraseSubmit")}
          </Button>
          <CancelLink t={t} />
        </div>
      </Form>
    </ConfirmModal>
  );
}
