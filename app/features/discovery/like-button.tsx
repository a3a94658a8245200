import { useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MemberRelation } from "#contract/members";
import type { LikeActionData } from "~/types";
import { HeartIcon } from "~/components/ui/icons";
import { useHydrated } from "~/utils/hydrated";
import { Button } from "~/components/ui/button";

/** The like button and the match modal share the fetcher of one member's like. */
export function likeFetcherKey(profileId: number): string {
  return `like-${profileId}`;
}


/**
 * Like / "Liked — unlike" / "It's a match" on a member's page (docs/product.md §2 member profile actions like, unlike).
 * A plain form posting to /members/{id}/like without JavaScript; with it, a fetcher (js=1) that shows the
 * new state at once and leaves the page where it is.
 */
export function LikeButton({ profileId, name, relation }: { profileId: number; name: string; relation: MemberRelation | null }) {
  const { t } = useTranslation("likes");
  const hydrated = useHydrated();
  const fetcher = useFetcher<LikeActionData>({ key: likeFetcherKey(profileId) });

  // Visitors get the login prompt of the member actions; a member the viewer blocked is unblocked first.
  if (!relation || relation.blocked_by_me) return null;

  // While the fetcher runs, show what it is doing; afterwards the page's revalidated relation.
  const pending = fetcher.formData?.get("intent");
  const liked = pending === "like" ? true : pending === "unlike" ? false : relation.liked;
  const match = liked && relation.liked_me;
  const failed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.message : null;

  return (
    <div className="mt-4 flex flex-wrap items-center gap-3" data-testid="like-actions">
      <fetcher.Form method="post" action={`/members/${profileId}/like`}>
        <input type="hidden" name="intent" value={liked ? "unlike" : "like"} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        {liked ? (
          <button type="submit" className={`${buttonClass} bg-primary-light text-primary-dark ring-1 ring-primary hover:bg-white`} data-testid="unlike-button">
            <HeartIcon />
            {t("button.liked")}
          </button>
        ) : (
          <Button size="sm" data-testid="like-button">
            <HeartIcon />
            {relation.liked_me ? t("button.likeBack") : t("button.like")}
          </Button>
        )}
      </fetcher.Form>
      {match ? (
        <span className="rounded-full bg-secondary px-3 py-1 text-sm font-semibold text-white" data-testid="match-badge">
          {t("button.match")}
        </span>
      ) : relation.liked_me ? (
        <span className="text-sm text-gray-600" data-testid="likes-you">
          {t("button.likesYou", { name })}
        </span>
      ) : null}
      {failed ? (
        <p role="alert" className="w-full text-sm text-danger">
          {failed}
        </p>
      ) : null}
    </div>
  );
}

const buttonClass = "inline-flex items-center gap-2 rounded-full px-5 py-2 text-sm font-semibold";
