import { Form, Link, NavLink, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { countBadgeText, creditsBadgeTone } from "./badges";
import { ChatIcon, ChevronDownIcon, HeartIcon, SearchIcon, StarIcon } from "../ui/icons";
import { LanguageMenu } from "./language-menu";
import { SignupLink } from "~/features/signup/signup-modal";
import { useRootData } from "~/utils/root-data";
import { ButtonLink } from "../ui/button";
import { afterHydration } from "~/utils/when-shown";

// Shown in an installed app only (standalone mode, which only the browser knows): its code loads after hydration.
const BackButton = afterHydration(() => import("./back-button").then((m) => m.BackButton));

function useHideLanguage(): boolean {
  const matches = useMatches();
  return matches.some((m) => (m.handle as { hideLanguage?: boolean } | undefined)?.hideLanguage);
}

/** docs/product.md §2: the brand goes to members when logged in, to the index when not. */
export function Brand() {
  const root = useRootData();
  return (
    <Link to={root?.user ? "/members" : "/"} className="min-w-0 truncate text-lg font-bold tracking-tight text-primary hover:text-primary-dark sm:text-xl">
      {root?.site.name ?? "Rendezvous"}
    </Link>
  );
}

export function BrandBar() {
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="container flex h-14 items-center">
        <Brand />
      </div>
    </header>
  );
}

export function TopNav() {
  const { t } = useTranslation();
  const root = useRootData();
  const hideLanguage = useHideLanguage();
  const user = root?.user;
  const tone = user ? creditsBadgeTone(user.credits) : null;
  return (
    <header className="sticky top-0 z-20 border-b border-gray-200 bg-white">
      <div className="container flex h-14 items-center gap-2">
        <BackButton />
        <Brand />
        {/* The nav keeps its width (the account menu must stay a full tap target at 390 px); only the brand shrinks. */}
        <nav aria-label={t("nav.main")} className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
          {user ? (
            <>
              <NavLink to="/members" className="nav-item">
                <SearchIcon />
                <span className="max-md:sr-only">{t("nav.search")}</span>
              </NavLink>
              <NavLink to="/chats" className="nav-item">
                <ChatIcon />
                <span className="max-md:sr-only">{t("nav.messages")}</span>
                <CountBadge count={user.unreadMessages} label={(count) => t("nav.unreadMessages", { count })} className="bg-unread" testId="badge-unread" />
              </NavLink>
              <NavLink to="/likes" className="nav-item">
                <HeartIcon />
                <span className="max-md:sr-only">{t("nav.likes")}</span>
                <CountBadge count={user.newLikes} label={(count) => t("nav.newLikes", { count })} className="bg-primary" testId="badge-likes" />
              </NavLink>
              {user.paidUser ? (
                <NavLink to="/credits" className="nav-item" data-testid="nav-credits">
                  <span className="max-sm:sr-only">{t("nav.credits")}</span>
                  <CreditsCount credits={user.credits} tone={tone} />
                </NavLink>
              ) : (
                <NavLink to="/premium" className="nav-item text-secondary" data-testid="nav-premium">
                  <StarIcon className="h-5 w-5 sm:hidden" />
                  <span className="max-sm:sr-only">{t("nav.getPremium")}</span>
                  {tone ? <CreditsCount credits={user.credits} tone={tone} /> : null}
                </NavLink>
              )}
              <AccountMenu name={user.name} thumbnail={user.thumbnail} />
            </>
          ) : (
            <>
              <SignupLink className="rounded-full px-3 py-1.5 text-sm font-semibold text-primary hover:bg-primary-light max-sm:hidden">{t("nav.signup")}</SignupLink>
              <ButtonLink to="/login" size="sm">
                {t("nav.login")}
              </ButtonLink>
            </>
          )}
          {hideLanguage || !root ? null : <LanguageMenu options={root.visibleLocales} />}
        </nav>
      </div>
    </header>
  );
}

/** docs/product.md §2: unread and new-like counts, capped at 99+; nothing at 0. */
function CountBadge({ count, label, className, testId }: { count: number; label: (count: number) => string; className: string; testId: string }) {
  const text = countBadgeText(count);
  if (!text) return null;
  return (
    <span className={`min-w-5 rounded-full px-1.5 py-0.5 text-center text-xs font-semibold text-white ${className}`} data-testid={testId} aria-label={label(count)}>
      {text}
    </span>
  );
}

function CreditsCount({ credits, tone }: { credits: number; tone: "warning" | "danger" | null }) {
  const { t } = useTranslation();
  const colour = tone === "danger" ? "bg-danger text-white" : tone === "warning" ? "bg-warning text-gray-900" : "bg-gray-100 text-gray-800";
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${colour}`} data-tone={tone ?? "none"} aria-label={t("nav.creditsLeft", { count: credits })}>
      {credits}
    </span>
  );
}

function AccountMenu({ name, thumbnail }: { name: string; thumbnail: string | null }) {
  const { t } = useTranslation();
  return (
    <details className="relative shrink-0" data-testid="account-menu">
      {/* The accessible name ("Account Dennis") contains the visible name (WCAG 2.5.3, axe label-content-name-mismatch). */}
      <summary className="flex min-h-10 min-w-10 items-center gap-2 rounded-md px-1 py-1 hover:bg-gray-100" data-testid="account-menu-button">
        {thumbnail ? (
          <img src={thumbnail} alt="" width={32} height={32} className="h-8 w-8 rounded-full bg-gray-200 object-cover" />
        ) : (
          <span className="flex h-8 w-8 items-center justify-center rounded-full bg-secondary text-sm font-semibold text-white" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <span className="sr-only">{t("nav.account")} </span>
        <span className="max-w-28 truncate text-sm font-medium text-gray-800 max-sm:sr-only">{name}</span>
        <ChevronDownIcon className="h-4 w-4 text-gray-500 max-sm:hidden" />
      </summary>
      <div className="absolute right-0 z-30 mt-1 w-48 rounded-md border border-gray-200 bg-white py-1 shadow-lg">
        <Link to="/profile" className="menu-item">
          {t("nav.myProfile")}
        </Link>
        <Link to="/notifications" className="menu-item">
          {t("nav.settings")}
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className="menu-item">
            {t("nav.logout")}
          </button>
        </Form>
      </div>
    </details>
  );
}
