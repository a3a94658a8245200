// First, before any module defines a zod schema: no `new Function` in the browser (server/patches/zod-jitless.ts).
import "../server/patches/zod-jitless";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteError } from "@remix-run/react";
import { visibleLocales } from "#contract/locales";
import stylesheet from "./tailwind.css?url";
import { getSettings, getUser, getUserCounts, getUserOffer } from "./utils/session.server";
import { resolveLocale } from "./utils/locale.server";
import { entryWarningEligible } from "./features/entry-warning/entry-warning.server";
import { keptLander, keptTracking, landerCookie, landerOfPath, newTracking, trackingCookieFor } from "./features/landers/tracking.server";
import { countVisit } from "./features/landers/attribution.server";
import { signupGate } from "./features/signup/signup-gate.server";
import { signupConstraint } from "./features/signup/signup.server";
import { memberAlerts } from "./features/members/member-alerts.server";
import { pageTitle } from "./utils/page-title";
import { splitLocale } from "./utils/paths";
import { useNonce } from "./utils/nonce";
import { TranslationsPreload } from "./utils/translations";
import { LayoutFrame, type LayoutName } from "./components/layout/layouts";
import { GeneralErrorBoundary } from "./components/layout/error-boundary";
import { StoreScope } from "./utils/store-scope";
import { useLocale } from "./utils/root-data";
import { LoadingBar } from "./components/layout/loading-bar";
import { reloadForChunkError } from "./utils/chunk-reload";

// Error pages are rare: their code loads when one is shown.

export const handle = { i18n: "common" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The locale prefix is the basename (server/locale-handlers.ts); "/en/..." is redirected by resolveLocale, and any
  // other first segment that is no locale is an unknown page (the splat route).
  // Funnel URLs (network, ref, sub1-sub3) are kept before any redirect, whichever page they land on.
  const tracking = trackingCookieFor(request);
  if (tracking) context.forwardSetCookie(tracking);
  // A new funnel entry, or the first view of a landing or lander page, is counted (docs/attribution.md, docs/staff.md
  // Analytics); the page does not wait for it.
  const entry = newTracking(request);
  const lander = landerOfPath(splitLocale(new URL(request.url).pathname).path);
  const newLander = lander !== null && keptLander(request) !== lander ? lander : null;
  if (newLander) context.forwardSetCookie(landerCookie(newLander));
  if (entry || newLander) countVisit(request, context, entry ?? keptTracking(request) ?? {}, { entry: entry !== null, ...(newLander ? { lander: newLander } : {}) });
  const settings = await getSettings(request, context);
  const locale = resolveLocale(request, settings);
  context.locale = locale;
  const [user, counts, offer] = await Promise.all([getUser(request, context), getUserCounts(request, context), getUserOffer(request, context)]);
  const alerts = user ? await memberAlerts(request, context, user, offer, settings.push_public_key) : [];
  return {
    alerts: alerts.filter((alert) => alert.key !== "hide-time-bonus-modal"),
    /** docs/product.md §4 time bonus, else §9 welcome discount (a member's only; banners apply to logged-in members). */
    offer: user ? offer : null,
    /** Whether this member may get the time bonus modal (it opens 40 s into the members area). */
    timeBonusModal: alerts.some((alert) => alert.key === "hide-time-bonus-modal"),
    locale,
    activationReminder: {
      show: user !== null && user.status === "not_confirmed" && user.profile.status === "disabled" && user.notifications_disabled.length === 0,
      smartphone: /Mobi|Android|iPhone/i.test(request.headers.get("User-Agent") ?? ""),
    },
    signup: {
      gate: signupGate(settings, request),
      minAge: settings.min_age,
      askMessage: settings.ask_signup_message,
      /** The signup form's constraint attributes, for a visitor (members get no signup form). */
      constraint: user ? null : signupConstraint(settings),
    },
    entryWarning: { eligible: entryWarningEligible(request, settings, user !== null), country: settings.geoip_country },
    path: splitLocale(new URL(request.url).pathname).path,
    /** fictional: the site's own names for its site-run profiles (docs/product.md §3 fictional_singular, fictional_plural); empty: the translated ones. */
    site: { name: settings.name, niche: settings.niche, fictional: { singular: settings.fictional_singular, plural: settings.fictional_plural } },
    /** The US footer (English only, docs/product.md §2): the 2257 records custodian's name and address. */
    custodian: locale === "en" ? { name: settings.company.name, address: settings.company.address, city: settings.company.city, country: settings.company.country } : null,
    /** Where photo filenames live (settings cdn_prefix), for components outside a route's data (the like modal). */
    cdn: settings.cdn_prefix,
    visibleLocales: visibleLocales(settings.geoip_country),
    user: user && {
      id: user.id,
      name: user.profile.name,
      thumbnail: user.profile.main_image ? settings.cdn_prefix + user.profile.main_image.thumb_filename : null,
      credits: user.credits,
      paidUser: user.paid_user,
      unreadMessages: counts?.unread_messages ?? 0,
      newLikes: counts?.new_likes ?? 0,
    },
    /** The polling fallback's interval when set by the operator (USER_REFETCH_SECONDS); else the one of docs/product.md §9. */
    refetchSeconds: user ? (context.userRefetchSeconds ?? null) : null,
  };
}
export type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * The navigation badges (unread messages, new likes, credits) must follow every navigation: opening a
 * like clears its flag, reading a chat its unread count. With single fetch the root loader answers in
 * the same request as the page's (which asks the api for the member anyway), so this costs little.
 */
export const shouldRevalidate = () => true;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [{ title: pageTitle(data?.site.name ?? "Rendezvous", matches) }];

function useLayoutName(): LayoutName {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const layout = (matches[i]?.handle as { layout?: LayoutName } | undefined)?.layout;
    if (layout) return layout;
  }
  return "default";
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const locale = useLocale();
  return (
    <html lang={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <TranslationsPreload locale={locale} />
      </head>
      <body className="min-h-screen">
        {/* One jotai store per server render, the error page's included (app/utils/store-scope.tsx). */}
        <StoreScope>{children}</StoreScope>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const layout = useLayoutName();
  return (
    <>
      <LoadingBar />
      <LayoutFrame layout={layout}>
        <Outlet />
      </LayoutFrame>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  // A route's code that failed to load (docs/product.md §8 ChunkLoadError) reloads the page once; the error shows otherwise.
  useEffect(() => {
    reloadForChunkError(error);
  }, [error]);
  return (
    <LayoutFrame layout="default">
      <GeneralErrorBoundary />
    </LayoutFrame>
  );
}
