import { browserPaths } from "#contract/endpoints/paths";
import { useEffect, useRef, useState } from "react";
import { Form, useLocation, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MemberCard } from "#contract/members";
import { useRootData } from "~/utils/root-data";
import { watchSession } from "~/features/account/auth-lost";
import { Button, ButtonLink } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";

/** docs/product.md §6: the members area is members, members/{id}, chats, likes, likes/m/{id} and premium. */
const membersArea = /^\/(members|chats|likes|premium)(\/|$)/;
/** The longest delay ?t= may ask for: an hour. */
const maxDelaySeconds = 3600;
/** docs/product.md §9: "Like modal reloads likes after 500 ms". */
const reloadAfterMs = 500;

/** Seconds from ?t=, or null when it is missing or no usable number. */
export function likeModalDelay(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, maxDelaySeconds) : null;
}

/**
 * docs/product.md §4 like modal, a JavaScript-only enhancement mounted once in the default layout. In the members area, for
 * a logged-in member whose URL has ?t=<seconds>: after t seconds it asks GET /api/auto-like.php and, when a
 * profile comes back, shows "{name} likes you!"; 500 ms later the page data reloads, so the likes badge counts it.
 * (?lb, page-bounce logging, is in like-modal-lazy.tsx, which loads this module only on ?t= URLs.)
 */
export function LikeModal() {
  const { t } = useTranslation("likes");
  const root = useRootData();
  const location = useLocation();
  const revalidator = useRevalidator();
  const [profile, setProfile] = useState<MemberCard | null>(null);
  const asked = useRef(false);

  const params = new URLSearchParams(location.search);
  const delay = likeModalDelay(params.get("t"));
  const eligible = Boolean(root?.user) && membersArea.test(location.pathname);
  const cdn = root?.cdn ?? "";

  useEffect(() => {
    if (!eligible || delay === null || asked.current) return;
    let cancelled = false;
    const timer = window.setTimeout(async () => {
      asked.current = true;
      try {
        const response = watchSession(await fetch(browserPaths.autoLike, { headers: { Accept: "application/json" }, credentials: "same-origin" }));
        if (!response.ok) return;
        // The schema (and zod) loads only now: the like modal must not weigh on every page's first load.
        const { AutoLikeResponse } = await import("#contract/likes");
        const parsed = AutoLikeResponse.safeParse(await response.json());
        if (!cancelled && parsed.success && parsed.data.profile) setProfile(parsed.data.profile);
      } catch {
        // No like modal this time: it is a bonus, never in the way.
      }
    }, delay * 1000);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [eligible, delay]);

  useEffect(() => {
    if (!profile) return;
    const timer = window.setTimeout(() => revalidator.revalidate(), reloadAfterMs);
    return () => window.clearTimeout(timer);
    // Once per profile shown; the revalidator object changes with every navigation state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [profile]);

  if (!profile || !eligible) return null;
  const image = profile.main_image;
  const close = () => setProfile(null);
  return (
    <Modal title={t("likeModal.title", { name: profile.name })} onClose={close} closeLabel={t("likeModal.close")} className="p-6 text-center" testId="like-modal">
      {image ? (
        <img src={cdn + image.thumb_filename} alt={profile.name} width={112} height={112} className="mx-auto mt-4 h-28 w-28 rounded-full bg-gray-100 object-cover" />
      ) : (
        <span role="img" aria-label={profile.name} className="mx-auto mt-4 flex h-28 w-28 items-center justify-center rounded-full bg-gray-100 text-4xl font-semibold text-gray-400">
          {profile.name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <p className="mt-3 text-sm text-gray-600">
        {profile.age}
        {profile.city ? `, ${profile.city}` : ""}
      </p>
      <div className="mt-6 flex flex-col gap-2">
        <Form method="post" action={`/members/${profile.id}/like`} onSubmit={close}>
          <input type="hidden" name="intent" value="like" />
          <Button block size="md">
            {t("likeModal.likeBack")}
          </Button>
        </Form>
        <ButtonLink to={`/likes/m/${profile.id}`} onClick={close} variant="secondary" size="md">
          {t("likeModal.viewProfile")}
        </ButtonLink>
      </div>
    </Modal>
  );
}
