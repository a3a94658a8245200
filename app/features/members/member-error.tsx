import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import type { BlockedByMemberData } from "~/types";
import { ButtonLink } from "~/components/ui/button";

/** Checked by hand rather than with zod: the member page should not load zod into the browser for this. */
function blockedByMemberName(data: unknown): string | null {
  const inner = (data as Partial<BlockedByMemberData> | null)?.blocked_by_member;
  return typeof inner?.name === "string" ? inner.name : null;
}

/** The member page's error boundary: the blocked message of docs/product.md §8 with a way back, else the general error page. */
export function MemberErrorBoundary() {
  const error = useRouteError();
  const name = isRouteErrorResponse(error) && error.status === 403 ? blockedByMemberName(error.data) : null;
  if (name !== null) return <BlockedByMember name={name} />;
  return <GeneralErrorBoundary />;
}

function BlockedByMember({ name }: { name: string }) {
  const { t } = useTranslation(["member", "common"]);
  return (
    <section className="container max-w-xl py-16 text-center" data-testid="blocked-by-member">
      <h1 className="text-xl font-semibold text-gray-900">{t("common:errors.blocked_by_member", { name })}</h1>
      <ButtonLink to="/members" size="md" className="mt-8">
        {t("blockedBy.back")}
      </ButtonLink>
    </section>
  );
}
