import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Panel } from "./panel";
import { Notice } from "./notice";
import { useHref } from "./root-data";
import { Button } from "./ui/button";

/** What /profile/export answered, in /profile's query (?export=): the form works without JavaScript. */
const outcomes = { requested: "data.requested", limit: "data.tooMany", gone: "data.notFound" } as const;

/** Issue 17: on /profile a member asks for a copy of their data; the link comes by mail when it is ready. */
export function DataExportPanel() {
  const { t } = useTranslation("export");
  const href = useHref();
  const { search } = useLocation();
  const busy = useNavigation().formAction === href("/profile/export");
  const outcome = new URLSearchParams(search).get("export");
  const message = outcome && outcome in outcomes ? outcomes[outcome as keyof typeof outcomes] : null;
  return (
    <Panel title={t("data.title")} testId="data-export">
      <p className="text-gray-600">{t("data.intro")}</p>
      {message ? <Notice testId="data-export-notice">{t(message)}</Notice> : null}
      <Form method="post" action={href("/profile/export")}>
        <Button disabled={busy} size="md">
          {t("data.request")}
        </Button>
      </Form>
    </Panel>
  );
}
