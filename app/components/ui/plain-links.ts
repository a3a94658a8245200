import type { MouseEvent } from "react";
import { useHref, useLocation, useNavigate } from "@remix-run/react";

/**
 * Links that navigate in the app through one click handler on the list holding them, instead of a <Link> each: a
 * <Link> runs half a dozen router hooks as it renders, and the 20 cards of a search page spent about 4% of web's CPU
 * on them (docs/performance-history.md). For long lists of links; a single link stays a <Link>.
 *
 * `href(to)` is a link's address under the page's basename (its language prefix); each link carries
 * `data-discover="true"`, which makes Remix discover its route as it does a <Link>'s; `onClick` goes on the list. A
 * plain left click on one of those links then navigates as a <Link> would (the same location replaces, as there);
 * any other click (a modifier key, another target or origin, a download) and every click before hydration is the
 * browser's own, a full page load as without JavaScript.
 */
export function usePlainLinks() {
  const basename = useHref("/");
  const navigate = useNavigate();
  const location = useLocation();
  const prefix = basename === "/" ? "" : basename;
  return {
    href: (to: string) => prefix + to,
    onClick(event: MouseEvent<HTMLElement>) {
      const link = (event.target as Element).closest("a[data-discover]");
      if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link)) return;
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      const inApp = !prefix || url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
      if (!inApp) return;
      const to = (url.pathname.slice(prefix.length) || "/") + url.search + url.hash;
      event.preventDefault();
      navigate(to, { replace: to === location.pathname + location.search + location.hash });
    },
  };
}
