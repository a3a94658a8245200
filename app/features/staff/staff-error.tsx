import { isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import type { loader as staffFrameLoader } from "~/routes/staff";
import { useStaffT } from "./staff-i18n";

/**
 * A staff page's error inside the staff frame (its navigation stays): a page the role may not open (403), one that
 * is not there (404) or another failure, in the staff texts (locales/en/staff.json errors). Without the frame's data
 * (the frame itself failed) the general error page shows.
 */
export function StaffErrorBoundary() {
  const error = useRouteError();
  const frame = useRouteLoaderData<typeof staffFrameLoader>("routes/staff");
  const t = useStaffT(frame?.texts.errors ? { errors: frame.texts.errors } : {});
  if (!frame) return <GeneralErrorBoundary />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const kind = status === 403 ? "forbidden" : status === 404 ? "notFound" : "failed";
  return (
    <section data-testid="staff-error" data-status={status}>
      <h1 className="text-2xl font-bold text-gray-900">{t(`errors.${kind}.title`)}</h1>
      <p className="mt-2 text-gray-700">{t(`errors.${kind}.text`, { role: frame.texts.role })}</p>
      <p className="mt-6">
        <Link to="/staff" className="font-semibold">
          {t("errors.back")}
        </Link>
      </p>
    </section>
  );
}
