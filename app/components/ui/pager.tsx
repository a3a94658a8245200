import { useTranslation } from "react-i18next";
import { ButtonLink } from "./button";

/**
 * Previous and next page links with "Page n of m" between them (or without a count, `pages` null: only whether a next
 * page exists), as plain links so paging works without JavaScript: the member search and the likes tabs.
 */
export function Pager({ page, pages, hasNext, linkTo }: { page: number; pages: number | null; hasNext: boolean; linkTo: (page: number) => string }) {
  const { t } = useTranslation();
  if (page <= 1 && !hasNext) return null;
  return (
    <nav className="mt-8 flex items-center justify-center gap-4" aria-label={t("members.pagination")}>
      {page > 1 ? (
        <ButtonLink to={linkTo(page - 1)} rel="prev" variant="neutral" size="md">
          {t("members.previous")}
        </ButtonLink>
      ) : null}
      {pages === null ? null : <span className="text-sm text-gray-600">{t("members.pageOf", { page, pages })}</span>}
      {hasNext ? (
        <ButtonLink to={linkTo(page + 1)} rel="next" variant="neutral" size="md">
          {t("members.next")}
        </ButtonLink>
      ) : null}
    </nav>
  );
}
