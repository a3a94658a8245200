import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { camImagePath, type CamSlot, type CamTiles } from "#contract/cam";

/**
 * docs/product.md §1: a live-cam partner's promotion among the member cards, labelled as advertising. The link goes
 * through /cam/{slot}/{tile}, which counts the click and sends the member on to the partner; the picture ships with
 * the project (no third-party loads).
 */
export function CamTile({ tiles, slot, tile }: { tiles: Omit<CamTiles, "link">; slot: CamSlot; tile: number }) {
  const { t } = useTranslation();
  return (
    // A document navigation (the route counts, then redirects to another site); Link keeps the page's locale prefix.
    <Link to={`/cam/${slot}/${tile}`} reloadDocument rel="sponsored nofollow" className="member-card" data-testid="cam-tile">
      <span className="absolute left-2 top-2 rounded-full bg-black/70 px-2 py-0.5 text-xs font-medium text-white" data-testid="cam-tile-ad">
        {t("members.cam.ad")}
      </span>
      <img src={camImagePath(tile)} alt="" loading="lazy" width={240} height={240} className="member-card-photo" />
      <div className="p-3">
        <p className="member-card-name">{tiles.title}</p>
        {tiles.text ? <p className="mt-0.5 line-clamp-2 text-sm text-gray-600">{tiles.text}</p> : null}
        <p className="mt-1 text-sm font-semibold text-primary-dark">{tiles.cta}</p>
      </div>
    </Link>
  );
}
