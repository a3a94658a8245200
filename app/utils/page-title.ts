import type { RootData } from "../root";
import { countBadgeText } from "../components/layout/badges";

/** The part of a route's meta `matches` this needs: the root's data (its navigation counts). */
type Matches = readonly { id: string; data?: unknown }[];

/**
 * docs/product.md §4: the page title gets a prefix with unread messages plus new likes in brackets when the sum
 * is above zero ("(3) Paula, 29 | Rendezvous"), 99+ from 100 as on the badges (the api counts each up to 100,
 * contract/user.ts badgeCountCap). Routes' meta functions pass their title through this; the root loader runs on
 * every navigation, so the count follows.
 */
export function pageTitle(title: string | undefined, matches: Matches): string | undefined {
  const user = (matches.find((m) => m.id === "root")?.data as Pick<RootData, "user"> | undefined)?.user;
  const count = countBadgeText(user ? user.unreadMessages + user.newLikes : 0);
  if (title === undefined || count === null) return title;
  return `(${count}) ${title}`;
}

/** A route's title (with the count prefix, pageTitle) and meta description, from what its loader returned. */
export function pageMeta(data: { title?: string; description?: string } | undefined, matches: Matches): ({ title: string } | { name: string; content: string })[] {
  // A route that failed has no data: its error page takes the nearest enclosing route's title (the staff console's).
  const shown = data ?? ([...matches].reverse().find((m) => typeof (m.data as { title?: unknown } | undefined)?.title === "string")?.data as { title: string } | undefined);
  const title = pageTitle(shown?.title, matches);
  return [...(title === undefined ? [] : [{ title }]), ...(data?.description ? [{ name: "description", content: data.description }] : [])];
}
