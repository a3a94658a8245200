import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { UnsubscribeResponse, UnsubscribeToken } from "#contract/notifications";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { Notice } from "~/components/ui/notice";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";

/**
 * Where a person lands who opens a mail's List-Unsubscribe link (GET /api/unsubscribe.php sends
 * them here): one button confirms, so a link scanner that follows links unsubscribes nobody. Mail programs
 * use the RFC 8058 one-click POST on the api instead. No session needed; works without JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const settings = await getSettings(request, context);
  const t = fixedT(locale, "notifications");
  return {
    token: UnsubscribeToken.safeParse(token).success ? token : null,
    done: url.searchParams.get("done") === "1",
    texts: {
      title: t("unsubscribe.title"),
      question: t("unsubscribe.question", { site: settings.name }),
      confirm: t("unsubscribe.confirm"),
      done: t("unsubscribe.done"),
      again: t("unsubscribe.again"),
      settingsLink: t("unsubscribe.settingsLink"),
      invalid: t("unsubscribe.invalid"),
    },
    title: t("unsubscribe.title"),
    description: metaDescription(locale, "unsubscribe"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  const form = await request.formData();
  const token = UnsubscribeToken.safeParse(form.get("token"));
  if (!token.success) return data({ invalid: true, message: null }, { status: 400 });
  const result = await apiFor(request, context).post("/api/unsubscribe.php", UnsubscribeResponse, { token: token.data });
  if (result.ok) return redirect(`/unsubscribe?done=1`);
  if (result.error.error === "link_invalid" || result.error.error === "validation_failed") return data({ invalid: true, message: null }, { status: 400 });
  return data({ invalid: false, message: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [...pageMeta(data, matches), { name: "robots", content: "noindex" }];

export default function Unsubscribe() {
  const { token, done, texts } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const invalid = failed?.invalid || (!done && !token);
  return (
    <section className="container max-w-xl py-10" data-testid="unsubscribe-page">
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <div className="mt-6 space-y-4">
        {done ? (
          <>
            <Notice testId="unsubscribed">{texts.done}</Notice>
            <p className="text-gray-700">
              {texts.again}{" "}
              <Link to="/notifications" className="font-semibold text-primary underline">
                {texts.settingsLink}
              </Link>
            </p>
          </>
        ) : invalid ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-danger" data-testid="unsubscribe-invalid">
            {texts.invalid}
          </p>
        ) : (
          <Form method="post" className="space-y-4">
            {failed?.message ? (
              <p role="alert" className="rounded-md bg-red-50 p-3 text-danger">
                {failed.message}
              </p>
            ) : null}
            <p className="text-gray-700">{texts.question}</p>
            <input type="hidden" name="token" value={token ?? ""} />
            <Button
              disabled={busy}
              data-testid="unsubscribe-confirm"
            >
              {texts.confirm}
            </Button>
          </Form>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
