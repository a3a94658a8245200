import { useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFictionalBadge } from "~/utils/root-data";
import type { DiscoveryDecision } from "#contract/discovery";
import type { DiscoveryLoaderData } from "~/features/discovery/discovery.server";

/** How far (px) the card must be dragged before letting go likes (right) or passes (left). */
const swipeThreshold = 100;

type Card = NonNullable<DiscoveryLoaderData["card"]>;

/**
 * The one big card of both games. With JavaScript it can be dragged (right like, left pass) or decided with the
 * arrow keys; `onDecide` answers whether the decision was taken.
 */
export function SwipeCard({
  card,
  cdn,
  canLike,
  leaving,
  onDecide,
}: {
  card: Card;
  cdn: string;
  canLike: boolean;
  leaving: DiscoveryDecision | null;
  onDecide: (decision: DiscoveryDecision) => boolean;
}) {
  const { t } = useTranslation("discovery");
  const { t: common } = useTranslation();
  const fictionalBadge = useFictionalBadge();
  const drag = useRef<{ pointerId: number; startX: number } | null>(null);
  const [dx, setDx] = useState(0);
  const [dragging, setDragging] = useState(false);

  const onPointerDown = (event: ReactPointerEvent<HTMLElement>) => {
    if (leaving || event.button !== 0 || (event.target instanceof Element && event.target.closest("a, button"))) return;
    drag.current = { pointerId: event.pointerId, startX: event.clientX };
    event.currentTarget.setPointerCapture(event.pointerId);
    setDragging(true);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    const moved = event.clientX - drag.current.startX;
    // Without likes left, a drag to the right resists and springs back.
    setDx(moved > 0 && !canLike ? moved / 4 : moved);
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    const moved = event.clientX - drag.current.startX;
    drag.current = null;
    setDragging(false);
    const decided = moved > swipeThreshold && canLike ? onDecide("like") : moved < -swipeThreshold ? onDecide("pass") : false;
    if (!decided) setDx(0);
  };
  const onPointerCancel = () => {
    drag.current = null;
    setDragging(false);
    setDx(0);
  };

  const offset = leaving === "like" ? 600 : leaving === "pass" ? -600 : dx;
  const strength = Math.min(1, Math.abs(offset) / swipeThreshold);
  return (
    <article
      className="relative mt-4 touch-pan-y select-none overflow-hidden rounded-2xl bg-white shadow-md ring-1 ring-gray-100"
      style={{
        transform: `translateX(${offset}px) rotate(${offset / 20}deg)`,
        transition: dragging ? "none" : "transform 250ms ease-out",
        opacity: leaving ? 0 : 1,
        cursor: dragging ? "grabbing" : "grab",
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      aria-label={`${card.name}, ${card.age}`}
      data-testid="discovery-card"
      data-member-id={card.id}
    >
      <div className="relative">
        {card.main_image ? (
          <img src={cdn + card.main_image.filename} alt={card.name} width={480} height={600} draggable={false} className="aspect-[4/5] max-h-[60vh] w-full bg-gray-100 object-cover" />
        ) : (
          <div className="flex aspect-[4/5] max-h-[60vh] w-full items-center justify-center bg-gray-100 text-7xl font-semibold text-gray-400" aria-hidden="true">
            {card.name.slice(0, 1)}
          </div>
        )}
        <span
          className="absolute left-4 top-4 -rotate-12 rounded-lg border-4 border-emerald-500 px-3 py-1 text-2xl font-extrabold uppercase text-emerald-500"
          style={{ opacity: offset > 0 ? strength : 0 }}
          aria-hidden="true"
        >
          {t("card.likeStamp")}
        </span>
        <span
          className="absolute right-4 top-4 rotate-12 rounded-lg border-4 border-danger px-3 py-1 text-2xl font-extrabold uppercase text-danger"
          style={{ opacity: offset < 0 ? strength : 0 }}
          aria-hidden="true"
        >
          {t("card.passStamp")}
        </span>
        <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 to-transparent p-4 pt-16 text-white">
          {card.fictional ? (
            <span className="mb-2 inline-block rounded-full bg-white/90 px-2 py-0.5 text-xs font-medium text-sky-900 shadow-sm" data-testid="fictional-badge">
              {fictionalBadge}
            </span>
          ) : null}
          <h2 className="text-2xl font-bold" data-testid="discovery-name">
            {card.name}, <span className="font-normal">{card.age}</span>
          </h2>
          {card.place ? <p className="text-sm text-white/90">{card.place}</p> : null}
        </div>
      </div>
      <div className="space-y-3 p-4">
        {card.about_me ? <p className="text-sm text-gray-700">{card.about_me}</p> : null}
        {card.interestKeys.length > 0 ? (
          <ul className="flex flex-wrap gap-2">
            {card.interestKeys.map((key) => (
              <li key={key} className="rounded-full bg-primary-light px-3 py-1 text-xs text-primary-dark">
                {common(`interests.${key}`)}
              </li>
            ))}
          </ul>
        ) : null}
        <Link to={`/members/${card.id}`} className="inline-block text-sm font-semibold">
          {t("card.viewProfile")}
        </Link>
      </div>
    </article>
  );
}
