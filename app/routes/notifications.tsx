import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { notificationChannels, notificationKinds, switchFieldName as fieldName } from "#contract/notification-kinds";
import { NotificationSettingsResponse } from "#contract/notifications";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { callWithMember, getSettings, requireUser } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { Notice } from "~/components/ui/notice";
import { pageMeta } from "~/utils/page-title";
import { settingsFromForm } from "~/features/account/notifications.server";
import { Button } from "~/components/ui/button";
import { afterHydration } from "~/utils/when-shown";
import { useHydrated } from "~/utils/hydrated";

// Push happens in the browser: the switch's code loads after hydration (without JavaScript the page says push needs it).
const PushSwitch = afterHydration(() => import("~/features/push/push-switch").then((m) => m.PushSwitch));

/**
 * /notifications (the account menu's Settings): a switch per kind (messages, likes, matches, news)
 * and channel (e-mail, push), and, when mail stopped (docs/product.md §3 notifications_disabled), why and how to get it
 * back. Plain forms: they work without JavaScript. On a site with push keys, this browser's push switch:
 * on, off, or why it cannot be (app/features/push/push-switch.tsx). The texts are rendered on the server (the notifications
 * namespace never ships to the browser).
 */
type Kind = (typeof notificationKinds)[number];
type Channel = (typeof notificationChannels)[number];

function textsOf(locale: Parameters<typeof fixedT>[0]) {
  const t = fixedT(locale, "notifications");
  return {
    title: t("title"),
    intro: t("intro"),
    kindHeader: t("kindHeader"),
    kinds: Object.fromEntries(notificationKinds.map((k) => [k, t(`kinds.${k}`)])) as Record<Kind, string>,
    channels: Object.fromEntries(notificationChannels.map((c) => [c, t(`channels.${c}`)])) as Record<Channel, string>,
    save: t("save"),
    saved: t("saved"),
    pushHint: t("pushHint"),
    device: {
      title: t("device.title"),
      label: t("device.label"),
      on: t("device.on"),
      off: t("device.off"),
      needsJavaScript: t("device.needsJavaScript"),
      notCapable: t("device.notCapable"),
      denied: t("device.denied"),
      failed: t("device.failed"),
    },
    paused: {
      title: t("paused.title"),
      fbl: t("paused.fbl"),
      bounce: t("paused.bounce"),
      listunsubscribe: t("paused.listunsubscribe"),
      resumeHint: t("paused.resumeHint"),
      resume: t("paused.resume"),
      resumed: t("paused.resumed"),
      bounceFix: t("paused.bounceFix"),
      bounceLink: t("paused.bounceLink"),
    },
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const early = callWithMember(request, context, "/api/notifications.php", NotificationSettingsResponse, {});
  const [, settings] = await Promise.all([requireUser(request, context), getSettings(request, context)]);
  const result = (await early) ?? (await apiFor(request, context).get("/api/notifications.php", NotificationSettingsResponse));
  if (!result.ok) throw data(null, { status: result.status });
  const done = new URL(request.url).searchParams.get("done");
  const texts = textsOf(locale);
  return {
    texts,
    settings: result.data.settings,
    reasons: result.data.notifications_disabled,
    /** The site's push key: without one the site has no push, and no switch. */
    pushPublicKey: settings.push_public_key,
    done: done === "saved" || done === "resumed" ? done : null,
    title: texts.title,
    description: metaDescription(locale, "notifications"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const form = await request.formData();
  const api = apiFor(request, context);
  const page = "/notifications";
  const intent = form.get("intent");

  if (intent === "resume") {
    const result = await api.post("/api/notifications-resume.php", NotificationSettingsResponse, {});
    if (!result.ok) return data({ message: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
    return redirect(`${page}?done=resumed`);
  }
  if (intent === "save") {
    const settings = settingsFromForm(form);
    if (!settings) return data({ message: fixedT(locale, "notifications")("error") }, { status: 400 });
    const result = await api.put("/api/notifications.php", NotificationSettingsResponse, { settings });
    if (!result.ok) return data({ message: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
    return redirect(`${page}?done=saved`);
  }
  throw data(null, { status: 400 });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function Notifications() {
  const { texts, settings, reasons, done, pushPublicKey } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  // Push needs JavaScript: until the page runs it (or without it), the push section says so.
  const hydrated = useHydrated();
  // A new location after each save: the form mounts again with what the api kept.
  const { key } = useLocation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const stopped = reasons.some((reason) => reason !== "bounce");
  return (
    <section className="container max-w-2xl py-10" data-testid="notifications-page">
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-2 text-gray-700">{texts.intro}</p>
      <div className="mt-6 space-y-6">
        {done === "saved" ? <Notice testId="notifications-saved">{texts.saved}</Notice> : null}
        {done === "resumed" ? <Notice testId="notifications-resumed">{texts.paused.resumed}</Notice> : null}
        {failed?.message ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-danger" data-testid="notifications-error">
            {failed.message}
          </p>
        ) : null}
        {reasons.length > 0 ? (
          <section aria-label={texts.paused.title} className="space-y-2 rounded-2xl bg-amber-50 p-6 ring-1 ring-amber-200" data-testid="notifications-paused">
            <h2 className="text-lg font-semibold text-gray-900">{texts.paused.title}</h2>
            {reasons.map((reason) => (
              <p key={reason} className="text-gray-800" data-testid={`paused-reason-${reason}`}>
                {texts.paused[reason]}
              </p>
            ))}
            {reasons.includes("bounce") ? (
              <p className="text-gray-800">
                {texts.paused.bounceFix}{" "}
                <Link to="/profile/account" className="font-semibold text-primary underline">
                  {texts.paused.bounceLink}
                </Link>
              </p>
            ) : null}
            {stopped ? (
              <Form method="post" className="pt-2">
                <input type="hidden" name="intent" value="resume" />
                <p className="mb-3 text-sm text-gray-600">{texts.paused.resumeHint}</p>
                <Button
                  disabled={busy("resume")}
                  data-testid="notifications-resume"
                >
                  {texts.paused.resume}
                </Button>
              </Form>
            ) : null}
          </section>
        ) : null}
        <Form key={key} method="post" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100" data-testid="notification-switches">
          <input type="hidden" name="intent" value="save" />
          <table className="w-full text-left">
            <thead>
              <tr className="text-sm text-gray-600">
                <th scope="col" className="py-2 font-medium">
                  {texts.kindHeader}
                </th>
                {notificationChannels.map((channel) => (
                  <th key={channel} scope="col" className="w-24 py-2 text-center font-medium">
                    {texts.channels[channel]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {notificationKinds.map((kind) => (
                <tr key={kind} className="border-t border-gray-100">
                  <th scope="row" className="py-3 font-normal text-gray-900">
                    {texts.kinds[kind]}
                  </th>
                  {notificationChannels.map((channel) => (
                    <td key={channel} className="py-3 text-center">
                      <input
                        type="checkbox"
                        name={fieldName(kind, channel)}
                        defaultChecked={settings[kind][channel]}
                        aria-label={`${texts.kinds[kind]}: ${texts.channels[channel]}`}
                        className="h-5 w-5 accent-primary"
                        data-testid={`switch-${kind}-${channel}`}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-3 text-sm text-gray-600">{texts.pushHint}</p>
          <Button
            disabled={busy("save")}
            className="mt-4"
            data-testid="notifications-save"
          >
            {texts.save}
          </Button>
        </Form>
        {pushPublicKey ? (
          <section aria-labelledby="push-device-title" className="min-h-32 space-y-3 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100" data-testid="push-device">
            <h2 id="push-device-title" className="text-lg font-semibold text-gray-900">
              {texts.device.title}
            </h2>
            {hydrated ? <PushSwitch publicKey={pushPublicKey} texts={texts.device} /> : <p className="text-gray-700">{texts.device.needsJavaScript}</p>}
          </section>
        ) : null}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
