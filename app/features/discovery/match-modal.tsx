import { useState } from "react";
import { useFetcher, useLocation, useNavigate } from "@remix-run/react";
import type { MemberRelation } from "#contract/members";
import type { LikeActionData } from "~/types";
import { likeFetcherKey } from "./like-button";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import { ButtonLink } from "~/components/ui/button";
import { whenShown } from "~/utils/when-shown";

// The dialog shows after a match only: its code loads then.
const MatchDialog = whenShown("MatchDialog", () => import("./match-dialog").then((m) => m.MatchDialog));

/**
 * docs/product.md §2 "'New like' match modal": both photos and names, "Send a message" and "Keep browsing". It opens after a
 * like that makes a match: from the like button's fetcher with JavaScript, from ?match=1 without (the action's
 * redirect), where it is a server-rendered dialog with a close link. docs/product.md §4: "closes on click anywhere, except
 * clicks on the photo and buttons".
 */
export function MatchModal({ profileId, name, photo, relation }: { profileId: number; name: string; photo: string | null; relation: MemberRelation | null }) {
  const { t } = useTranslation("likes");
  const me = useRootData()?.user;
  const location = useLocation();
  const navigate = useNavigate();
  const fetcher = useFetcher<LikeActionData>({ key: likeFetcherKey(profileId) });
  const [dismissed, setDismissed] = useState<LikeActionData | null>(null);

  const params = new URLSearchParams(location.search);
  const fromUrl = params.get("match") === "1";
  const fromFetcher = fetcher.data?.ok && fetcher.data.intent === "like" && fetcher.data.match && fetcher.data !== dismissed ? fetcher.data : null;
  const open = Boolean(me && relation?.match && (fromUrl || fromFetcher));
  params.delete("match");
  const rest = params.toString();
  const closeHref = location.pathname + (rest ? `?${rest}` : "");

  function close() {
    if (fromFetcher) setDismissed(fromFetcher);
    if (fromUrl) navigate(closeHref, { replace: true, preventScrollReset: true });
  }

  if (!open || !me) return null;
  return (
    <MatchDialog member={{ name, photo }} closeHref={closeHref} onClose={close}>
      <ButtonLink to={`/members/${profileId}/chat`} size="md">
        {t("matchModal.sendMessage")}
      </ButtonLink>
      <ButtonLink to="/members" variant="secondary" size="md">
        {t("matchModal.keepBrowsing")}
      </ButtonLink>
    </MatchDialog>
  );
}
