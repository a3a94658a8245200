import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MemberProfile } from "#contract/members";
import { useRootData } from "~/utils/root-data";

/**
 * Another member's photos on their page: the main photo large, the others as thumbnails. The api
 * sends only the photos the viewer may see (docs/product.md §6); when there are more, a tile offers them
 * (docs/product.md §2 "photo-count" action): to premium for members, to log in for visitors.
 */
export function MemberPhotos({ profile, cdn }: { profile: Pick<MemberProfile, "name" | "photos" | "photo_count">; cdn: string }) {
  const { t } = useTranslation();
  const { t: tp } = useTranslation("photos");
  const loggedIn = Boolean(useRootData()?.user);
  const [main, ...more] = profile.photos;
  const hidden = Math.max(0, profile.photo_count - profile.photos.length);
  return (
    <div data-testid="member-photos">
      {main ? (
        <img src={cdn + main.filename} alt={profile.name} width={480} height={480} className="aspect-square w-full rounded-2xl bg-gray-100 object-cover" />
      ) : (
        <div className="flex aspect-square w-full items-center justify-center rounded-2xl bg-gray-100 text-6xl font-semibold text-gray-400" aria-hidden="true">
          {profile.name.slice(0, 1)}
        </div>
      )}
      {more.length > 0 || hidden > 0 ? (
        <ul className="mt-3 grid grid-cols-4 gap-2">
          {more.map((photo) => (
            <li key={photo.filename}>
              <a href={cdn + photo.filename}>
                <img src={cdn + photo.thumb_filename} alt="" loading="lazy" width={120} height={120} className="aspect-square w-full rounded-lg bg-gray-100 object-cover" />
              </a>
            </li>
          ))}
          {hidden > 0 ? (
            <li>
              <Link
                to={loggedIn ? "/premium" : "/login"}
                // The same link as the text below: a tile to tap, kept out of the keyboard and screen-reader order.
                tabIndex={-1}
                aria-hidden="true"
                className="flex aspect-square w-full items-center justify-center rounded-lg bg-secondary/10 text-xl font-bold text-secondary ring-1 ring-secondary/20 hover:bg-secondary/20"
              >
                +{hidden}
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
      <p className="mt-2 text-sm text-gray-500" data-testid="photo-count">
        {t("memberPage.photoCount", { count: profile.photo_count })}
      </p>
      {hidden > 0 ? (
        <p className="mt-1 text-sm">
          <Link to={loggedIn ? "/premium" : "/login"} className="font-semibold text-secondary hover:underline" data-testid="photo-teaser">
            {tp(loggedIn ? "teaser" : "teaserVisitor", { count: hidden })}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
