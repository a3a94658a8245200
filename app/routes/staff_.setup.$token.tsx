import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
// uqr (MIT, no dependencies): the QR code's modules, computed here on the server and drawn as an inline SVG, so the
// enrolment secret never leaves this page for an image service and the page needs no script to show it.
import { encode } from "uqr";
import { LinkToken } from "#contract/input";
import { StaffSetupDone, StaffSetupResponse } from "#contract/staff-setup";
import { apiFor } from "~/utils/api.server";
import { formConstraint } from "~/utils/form-constraint";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { staffSetupSchema } from "~/features/staff/setup-forms";
import { FormAlert, InputField, SubmitButton } from "~/components/ui/form-fields";
import { useValidatedForm } from "~/components/ui/validated-form";
import { useEmptyPasswordsAfterError } from "~/features/account/account-ui";

export const handle = { layout: "staff", hideEntryWarning: true };

/** The QR code of the otpauth:// URI: its size in modules (a quiet zone of 4 included) and one SVG path of its dark modules. */
function qrCodeOf(uri: string): { size: number; path: string } {
  const qr = encode(uri, { ecc: "M", border: 4 });
  let path = "";
  qr.data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return { size: qr.size, path };
}

/**
 * A new staff member's set-up link (`npm run staff -- add`, scripts/staff.ts): the account, the TOTP secret
 * to enrol (a QR code and the key to type), then a password and the app's code; the recovery codes once at the end.
 * A link that is unknown, used or expired answers 404 with a page that says so.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const all = staffTexts();
  const texts = all.setup;
  const page = { title: texts.metaTitle, description: texts.lead, texts: { brand: all.brand, setup: texts }, constraint: formConstraint(staffSetupSchema(texts)) };
  const token = LinkToken.safeParse(params.token);
  if (!token.success) return data({ ...page, setup: null, tooMany: false }, { status: 404 });
  const result = await apiFor(request, context).get("/api/staff/setup.php", StaffSetupResponse, { token: token.data }, { sessionOptional: true });
  if (!result.ok) {
    const tooMany = result.error.error === "too_many_requests";
    return data({ ...page, setup: null, tooMany }, { status: tooMany ? 429 : 404 });
  }
  const { email, totp_secret: secret, otpauth_uri: uri } = result.data;
  return data({ ...page, setup: { email, secret, qr: qrCodeOf(uri) }, tooMany: false });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const texts = staffTexts().setup;
  const submission = parseWithZod(await request.formData(), { schema: staffSetupSchema(texts) });
  const hidden = { hideFields: ["password", "password_repeat", "code"] };
  if (submission.status !== "success") return data({ reply: submission.reply(hidden), recoveryCodes: null }, { status: 400 });
  const token = LinkToken.safeParse(params.token);
  // An invalid link: the loader's page says so.
  if (!token.success) return data({ reply: submission.reply({ ...hidden, formErrors: [texts.invalidLead] }), recoveryCodes: null }, { status: 404 });
  const { password, code } = submission.value;
  const result = await apiFor(request, context).post("/api/staff/setup.php", StaffSetupDone, { token: token.data, password, code });
  // Status 200 set here: it is the page's, not the loader's (which finds the link used now).
  if (result.ok) return data({ reply: null, recoveryCodes: result.data.recovery_codes }, { status: 200 });
  const error = result.error;
  if (error.error === "validation_failed") {
    const fieldErrors: Record<string, string[]> = {};
    if (error.fields?.code) fieldErrors.code = [texts.codeWrong];
    if (error.fields?.password) fieldErrors.password = [texts.passwordInvalid];
    return data({ reply: submission.reply({ ...hidden, fieldErrors }), recoveryCodes: null }, { status: 400 });
  }
  const message = error.error === "too_many_requests" ? texts.tooMany : texts.invalidLead;
  return data({ reply: submission.reply({ ...hidden, formErrors: [message] }), recoveryCodes: null }, { status: result.status });
}

/** After the set-up the link is used: the page keeps showing the recovery codes instead of asking the api again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as { recoveryCodes?: unknown } | undefined)?.recoveryCodes ? false : defaultShouldRevalidate;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffSetup() {
  const { texts, setup, tooMany, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-gray-50 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200">
        <p className="text-sm font-semibold text-gray-700">{texts.brand}</p>
        {actionData?.recoveryCodes ? (
          <RecoveryCodes texts={texts.setup} codes={actionData.recoveryCodes} />
        ) : setup ? (
          <SetupForm texts={texts.setup} setup={setup} constraint={constraint} lastResult={actionData?.reply} />
        ) : tooMany ? (
          <div className="mt-4">
            <FormAlert>{texts.setup.tooMany}</FormAlert>
          </div>
        ) : (
          <>
            <h1 className="mt-1 text-2xl font-bold text-gray-900">{texts.setup.invalidTitle}</h1>
            <p className="mt-2 text-gray-700" data-testid="staff-setup-invalid">
              {texts.setup.invalidLead}
            </p>
          </>
        )}
      </div>
    </main>
  );
}

type SetupTexts = ReturnType<typeof useLoaderData<typeof loader>>["texts"]["setup"];

function SetupForm({
  texts,
  setup,
  constraint,
  lastResult,
}: {
  texts: SetupTexts;
  setup: { email: string; secret: string; qr: { size: number; path: string } };
  constraint: ReturnType<typeof useLoaderData<typeof loader>>["constraint"];
  lastResult: Parameters<typeof useValidatedForm>[0]["lastResult"];
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const schema = useMemo(() => () => import("~/features/staff/setup-forms").then((m) => () => m.staffSetupSchema(texts)), [texts]);
  const { form, fields, formProps, validation } = useValidatedForm({ id: "staff-setup", schema, constraint, lastResult });
  useEmptyPasswordsAfterError(form.id, lastResult ?? undefined, ["code"]);
  // The key in groups of four, as apps show it; any spaces typed with it are ignored by the apps.
  const groupedSecret = setup.secret.replace(/(.{4})(?=.)/g, "$1 ");
  return (
    <>
      <h1 className="mt-1 text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 text-sm text-gray-600">{texts.lead}</p>
      <p className="mt-4 text-sm font-medium text-gray-900" data-testid="staff-setup-account">
        {texts.account.replace("{{email}}", setup.email)}
      </p>
      <h2 className="mt-6 text-base font-semibold text-gray-900">{texts.scan}</h2>
      <svg
        viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`}
        className="mt-3 h-56 w-56"
        role="img"
        aria-label={texts.qrLabel}
        shapeRendering="crispEdges"
        data-testid="staff-setup-qr"
      >
        <rect width={setup.qr.size} height={setup.qr.size} fill="#fff" />
        <path d={setup.qr.path} fill="#000" />
      </svg>
      <p className="mt-3 text-sm text-gray-700">{texts.secret}</p>
      <p className="mt-1 break-all font-mono text-base tracking-wide text-gray-900" data-testid="staff-setup-secret">
        {groupedSecret}
      </p>
      <h2 className="mt-6 text-base font-semibold text-gray-900">{texts.choose}</h2>
      <Form method="post" className="mt-4 space-y-4" {...formProps}>
        {validation}
        {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
        <InputField
          field={fields.password}
          label={texts.password}
          type="password"
          autoComplete="new-password"
          hint={<p className="mt-1 text-xs text-gray-600">{texts.passwordHint}</p>}
        />
        <InputField field={fields.password_repeat} label={texts.repeat} type="password" autoComplete="new-password" />
        <InputField field={fields.code} label={texts.code} type="text" autoComplete="one-time-code" />
        <SubmitButton busy={busy} busyText={texts.submitting}>
          {texts.submit}
        </SubmitButton>
      </Form>
    </>
  );
}

function RecoveryCodes({ texts, codes }: { texts: SetupTexts; codes: string[] }) {
  return (
    <>
      <h1 className="mt-1 text-2xl font-bold text-gray-900">{texts.doneTitle}</h1>
      <p className="mt-2 text-gray-700">{texts.doneLead}</p>
      <h2 className="mt-4 text-sm font-semibold text-gray-900">{texts.recoveryCodes}</h2>
      <ol className="mt-2 grid grid-cols-2 gap-2 font-mono text-base text-gray-900" data-testid="staff-recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded bg-gray-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ol>
      <p className="mt-6">
        <Link to="/staff/login" className="font-medium text-primary underline">
          {texts.toLogin}
        </Link>
      </p>
    </>
  );
}
