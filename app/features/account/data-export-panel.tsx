import { Form, useFormAction, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Panel } from "~/components/ui/panel";
import { Notice } from "~/components/ui/notice";
import { Button } from "~/components/ui/button";

/** What /profile/export answered, in /profile's query (?export=): the form works without JavaScript. */
const outcomes = { requested: "data.requested", limit: "data.tooMany", gone: "data.notFound" } as const;

/** On /profile a member asks for a copy of their data; the link comes by mail when it is ready. */
export function DataExportPanel() {
  const { t } = useTranslation("export");
  const { search } = useLocation();
  // The navigation's formAction carries the locale prefix (the basename), as useFormAction's answer does.
  const busy = useNavigation().formAction === useFormAction("/profile/export");
  const outcome = new URLSearchParams(search).get("export");
  const message = outcome && outcome in outcomes ? outcomes[outcome as keyof typeof outcomes] : null;
  return (
    <Panel title={t("data.title")} testId="data-export">
      <p className="text-gray-600">{t("data.intro")}</p>
      {message ? <Notice testId="data-export-notice">{t(message)}</Notice> : null}
      <Form method="post" action="/profile/export">
        <Button disabled={busy} size="md">
          {t("data.request")}
        </Button>
      </Form>
    </Panel>
  );
}
