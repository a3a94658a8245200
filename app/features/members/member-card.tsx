import { useTranslation } from "react-i18next";
import { useFictionalBadge } from "~/utils/root-data";
import { usePlainLinks } from "~/components/ui/plain-links";
import type { MemberCard as MemberCardData } from "#contract/members";

/** What the cards of a grid share, worked out once for the grid rather than by each card's own hooks. */
type CardGrid = { href: (to: string) => string; cityUnknown: string; fictionalBadge: string };

/** What a card shows of a member: a loader hands the page only this (its data is written into the page a second time, for hydration). */
export type CardView = Pick<MemberCardData, "id" | "name" | "age" | "city" | "fictional"> & { photo: string | null };

/** A member of the api's answer as a card shows it: the photo's thumbnail under the site's cdn prefix. */
export function cardView(member: MemberCardData, cdn: string): CardView {
  return { id: member.id, name: member.name, age: member.age, city: member.city, fictional: member.fictional, photo: member.main_image ? cdn + member.main_image.thumb_filename : null };
}

/**
 * A grid of member cards: `onClick` goes on its list, `card` to each MemberCard. The cards are plain links that
 * navigate through the list's one handler (app/components/ui/plain-links.ts).
 */
export function useMemberCardGrid(): { onClick: ReturnType<typeof usePlainLinks>["onClick"]; card: CardGrid } {
  const { t } = useTranslation();
  const fictionalBadge = useFictionalBadge();
  const links = usePlainLinks();
  return { onClick: links.onClick, card: { href: links.href, cityUnknown: t("members.cityUnknown"), fictionalBadge } };
}

/**
 * A member in a grid: photo (or initial), name, age and city, linking to the profile. `priority`: the card is in the
 * grid's first row, on the first screen: its photo loads at once ("eager", not lazy: the first screen's largest
 * image), and "high" fetches the very first one before the rest of the page's images.
 */
export function MemberCard({ member, priority, grid }: { member: CardView; priority?: "eager" | "high"; grid: CardGrid }) {
  return (
    <a className="member-card" data-discover="true" href={grid.href(`/members/${member.id}`)}>
      {member.fictional ? (
        <span className="absolute left-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-medium text-sky-900 shadow-sm" data-testid="fictional-badge">
          {grid.fictionalBadge}
        </span>
      ) : null}
      {member.photo ? (
        <img
          src={member.photo}
          alt={member.name}
          loading={priority ? "eager" : "lazy"}
          // React 18 does not know fetchPriority yet: the lowercase attribute passes through as it is.
          {...(priority === "high" ? { fetchpriority: "high" } : {})}
          width={240} height={240} className="member-card-photo" />
      ) : (
        <div className="flex aspect-square w-full items-center justify-center bg-gray-100 text-4xl font-semibold text-gray-400" aria-hidden="true">
          {member.name.slice(0, 1)}
        </div>
      )}
      <div className="p-3">
        <p className="member-card-name">
          {/* One text node: "{name}, " as two would be written with a separator comment between them. */}
          {`${member.name}, `}
          <span className="font-normal">{member.age}</span>
        </p>
        <p className="member-card-city">{member.city ?? grid.cityUnknown}</p>
      </div>
    </a>
  );
}
