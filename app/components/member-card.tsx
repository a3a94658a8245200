import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MemberCard as MemberCardData } from "#contract/members";


/**
 * A member in a grid: photo (or initial), name, age and city, linking to the profile. `priority`: the card is in the
 * grid's first row, on the first screen: its photo loads at once ("eager", not lazy: the first screen's largest
 * image, issue 29), and "high" fetches the very first one before the rest of the page's images.
 */
export function MemberCard({ member, cdn, priority }: { member: MemberCardData; cdn: string; priority?: "eager" | "high" }) {
  const { t } = useTranslation();
  return (
    <Link to={`/members/${member.id}`} className="group relative block overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-gray-100 hover:ring-primary">
      {member.fictional ? (
        <span className="absolute left-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-medium text-sky-900 shadow-sm" data-testid="fictional-badge">
          {t("member:fictional.badge")}
        </span>
      ) : null}
      {member.main_image ? (
        <img
          src={cdn + member.main_image.thumb_filename}
          alt={member.name}
          loading={priority ? "eager" : "lazy"}
          // React 18 does not know fetchPriority yet: the lowercase attribute passes through as it is.
          {...(priority === "high" ? { fetchpriority: "high" } : {})}
          width={240} height={240} className="aspect-square w-full bg-gray-100 object-cover" />
      ) : (
        <div className="flex aspect-square w-full items-center justify-center bg-gray-100 text-4xl font-semibold text-gray-400" aria-hidden="true">
          {member.name.slice(0, 1)}
        </div>
      )}
      <div className="p-3">
        <p className="truncate font-semibold text-gray-900">
          {member.name}, <span className="font-normal">{member.age}</span>
        </p>
        <p className="truncate text-sm text-gray-500">{member.city ?? t("members.cityUnknown")}</p>
      </div>
    </Link>
  );
}
