import { useEffect, useState } from "react";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DiscoveryDecision } from "#contract/discovery";
import type { MemberCard } from "#contract/members";
import { discoveryPaths } from "./paths";
import { SwipeCard } from "./swipe-card";
import type { DiscoveryActionData, DiscoveryLoaderData } from "~/features/discovery/discovery.server";
import { CrossIcon, HeartIcon } from "~/components/ui/icons";
import { Button, ButtonLink } from "~/components/ui/button";
import { useHydrated } from "~/utils/hydrated";
import { whenShown } from "~/utils/when-shown";

// Shown after a match only (the server renders it for ?match= without JavaScript): its code and the Modal's load then.
const MatchDialog = whenShown("MatchDialog", () => import("./match-dialog").then((m) => m.MatchDialog));


function isDecision(value: unknown): value is DiscoveryDecision {
  return value === "like" || value === "pass";
}

/**
 * The page of both games: one big card with Like and Pass. The buttons are a plain form (works without
 * JavaScript); with JavaScript the card can also be dragged (right like, left pass) or decided with the
 * arrow keys, and decisions go through a fetcher while the card flies off.
 */
export function DiscoveryPage() {
  const { t } = useTranslation("discovery");
  const { game, card, likesLeft, likeLimit, matched: matchedFromUrl, cdn } = useLoaderData<DiscoveryLoaderData>();
  const actionData = useActionData<DiscoveryActionData>();
  const fetcher = useFetcher<DiscoveryActionData>();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [dismissedMatch, setDismissedMatch] = useState<number | null>(null);
  const busy = fetcher.state !== "idle";
  const limitReached = likesLeft !== null && likesLeft <= 0;
  const back = discoveryPaths[game];
  const error = (fetcher.data ?? actionData)?.error ?? null;
  const matched = fetcher.data?.matched ?? matchedFromUrl;
  const showMatch = matched && matched.id !== dismissedMatch ? matched : null;

  // The card being decided flies off until the fetcher is idle again: by then the loaders revalidated and the next card is there.
  const pendingDecision = fetcher.formData?.get("decision");
  const leaving = isDecision(pendingDecision) ? { id: Number(fetcher.formData?.get("id")), decision: pendingDecision } : null;

  const decide = (decision: DiscoveryDecision) => {
    if (!card || busy || showMatch || (decision === "like" && limitReached)) return false;
    fetcher.submit({ decision, id: String(card.id), enhanced: "1" }, { method: "post" });
    return true;
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.target instanceof HTMLElement && event.target.closest("input, textarea, select, [contenteditable]")) return;
      if (event.key === "ArrowRight" && decide("like")) event.preventDefault();
      if (event.key === "ArrowLeft" && decide("pass")) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const closeMatch = () => {
    if (!matched) return;
    setDismissedMatch(matched.id);
    if (searchParams.has("match")) navigate(back, { replace: true, preventScrollReset: true });
  };

  return (
    <section className="container max-w-lg py-6" data-testid={`discovery-${game}`}>
      <div className="flex items-baseline justify-between gap-4">
        <h1 className="text-2xl font-bold text-gray-900">{t(game === "swipe" ? "swipe.title" : "matchFinder.title")}</h1>
        <Link to={discoveryPaths[game === "swipe" ? "match_finder" : "swipe"]} className="text-sm">
          {t(game === "swipe" ? "other.toMatchFinder" : "other.toSwipeGame")}
        </Link>
      </div>
      <p className="mt-1 text-sm text-gray-600">{game === "swipe" ? t("swipe.lead", { limit: likeLimit ?? 0 }) : t("matchFinder.lead")}</p>
      {likesLeft !== null ? (
        <p className="mt-3 inline-block rounded-full bg-primary-light px-3 py-1 text-sm font-semibold text-primary-dark" data-testid="likes-left">
          {t("likesLeft", { left: likesLeft })}
        </p>
      ) : null}
      {error && !limitReached ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-danger" data-testid="discovery-error">
          {error}
        </p>
      ) : null}
      {limitReached ? <LimitReached limit={likeLimit ?? 0} /> : null}
      {card ? (
        <>
          <SwipeCard
            key={card.id}
            card={card}
            cdn={cdn}
            canLike={!limitReached}
            leaving={leaving?.id === card.id ? leaving.decision : null}
            onDecide={decide}
          />
          <Form
            method="post"
            className="mt-5 flex items-center justify-center gap-6"
            onSubmit={(event) => {
              // With JavaScript the fetcher posts (and the card flies off); without, the browser posts the form.
              event.preventDefault();
              const submitter = (event.nativeEvent as SubmitEvent).submitter;
              const value = submitter instanceof HTMLButtonElement ? submitter.value : "";
              if (isDecision(value)) decide(value);
            }}
          >
            <input type="hidden" name="id" value={card.id} />
            <Button name="decision" value="pass" disabled={busy} variant="neutral" size="xl" className="shadow-sm">
              <CrossIcon />
              {t("card.pass")}
            </Button>
            {limitReached ? null : (
              <Button name="decision" value="like" disabled={busy} size="xl" className="shadow-sm">
                <HeartIcon />
                {t("card.like")}
              </Button>
            )}
          </Form>
          {limitReached ? null : <HydratedHint />}
        </>
      ) : (
        <div className="mt-6 rounded-2xl bg-white p-10 text-center ring-1 ring-gray-100" data-testid="discovery-empty">
          <p className="font-semibold text-gray-900">{t("empty.title")}</p>
          <p className="mt-2 text-sm text-gray-600">{t("empty.body")}</p>
          <Link to="/members" className="mt-4 inline-block font-semibold">
            {t("empty.toMembers")}
          </Link>
        </div>
      )}
      {showMatch ? <MatchNotice member={showMatch} cdn={cdn} closeHref={back} onClose={closeMatch} /> : null}
    </section>
  );
}

/** The swipe game's daily likes are used up: the api's message, and what one can do instead. */
function LimitReached({ limit }: { limit: number }) {
  const { t } = useTranslation("discovery");
  const { t: common } = useTranslation();
  return (
    <div role="alert" className="mt-4 rounded-xl bg-amber-50 p-4 text-sm text-gray-800 ring-1 ring-amber-200" data-testid="swipe-limit">
      <p className="font-semibold">{common("errors.swipe_limit_reached", { limit })}</p>
      <p className="mt-1">{t("limit.next")}</p>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        <Link to="/members" className="font-semibold">
          {t("limit.toMembers")}
        </Link>
        <Link to={discoveryPaths.match_finder} className="font-semibold">
          {t("limit.toMatchFinder")}
        </Link>
      </p>
    </div>
  );
}

/** The hint about dragging and arrow keys, only where they work (after hydration). */
function HydratedHint() {
  const { t } = useTranslation("discovery");
  if (!useHydrated()) return null;
  return <p className="mt-3 text-center text-xs text-gray-500">{t("card.hint")}</p>;
}

/** "It's a match" after a like in the game: the member's profile, or back to the game (without JavaScript, a link without ?match). */
function MatchNotice({ member, cdn, closeHref, onClose }: { member: MemberCard; cdn: string; closeHref: string; onClose: () => void }) {
  const { t } = useTranslation("discovery");
  return (
    <MatchDialog member={{ name: member.name, photo: member.main_image ? cdn + member.main_image.thumb_filename : null }} closeHref={closeHref} onClose={onClose}>
      <ButtonLink to={`/members/${member.id}`} size="md">
        {t("match.viewProfile")}
      </ButtonLink>
      <ButtonLink
        to={closeHref}
        replace
        preventScrollReset
        onClick={(event) => {
          event.preventDefault();
          onClose();
        }}
        variant="neutral"
        size="md"
      >
        {t("match.continue")}
      </ButtonLink>
    </MatchDialog>
  );
}
