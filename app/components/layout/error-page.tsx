import { Component, type ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "../ui/button";

/** Requests refused before any route read them (server/request-guard.ts), and limits. */
const refusalMessages: Record<number, string> = {
  400: "errors.badRequest",
  403: "errors.cross_site_request",
  411: "errors.badRequest",
  413: "errors.request_too_large",
  415: "errors.unsupportedMediaType",
  429: "errors.too_many_requests",
};

/** Status and message of whatever was thrown: docs/product.md §2, status 500 and "Error" unless known better. */
export function describeError(error: unknown): { status: number; messageKey: string } {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return { status: 404, messageKey: "errors.notFound" };
    if (error.status === 503) return { status: 503, messageKey: "errors.serviceUnavailable" };
    // A 403 says "not from this site" only when the request guard refused it; other 403s stay generic.
    const refused = typeof error.data === "object" && error.data !== null && "refusal" in error.data;
    const refusal = error.status === 403 && !refused ? undefined : refusalMessages[error.status];
    if (refusal) return { status: error.status, messageKey: refusal };
    return { status: error.status, messageKey: "errors.generic" };
  }
  return { status: 500, messageKey: "errors.generic" };
}

function ErrorPage({ status, messageKey }: { status: number; messageKey: string }) {
  const { t } = useTranslation();
  return (
    <section className="container py-16 text-center" data-testid="error-page">
      <p className="text-6xl font-bold text-primary">{status}</p>
      <h1 className="mt-4 text-2xl font-semibold text-gray-900">{t(messageKey)}</h1>
      {status === 503 ? <p className="mt-2 text-gray-600">{t("errors.tryAgainLater")}</p> : null}
      <ButtonLink to="/" reloadDocument={status === 503} size="md" className="mt-8">
        {t("errors.backHome")}
      </ButtonLink>
    </section>
  );
}

/** docs/product.md §2: if the error page itself fails, say so plainly with a link home. */
class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <ErrorPageFailed /> : this.props.children;
  }
}

function ErrorPageFailed() {
  const { t } = useTranslation();
  return (
    <section className="container py-16 text-center">
      <h1 className="text-2xl font-semibold">{t("errors.errorPageFailed")}</h1>
      <a href="/" className="mt-6 inline-block underline">
        {t("errors.backHome")}
      </a>
    </section>
  );
}

export function GeneralErrorBoundary() {
  const error = useRouteError();
  const described = describeError(error);
  return (
    <ErrorPageGuard>
      <ErrorPage {...described} />
    </ErrorPageGuard>
  );
}
