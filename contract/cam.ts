/*
 * Live-cam promotion tiles (docs/product.md §1). Plain data, no zod: the members pages import it.
 * A site that sets `cam_tiles` shows tiles in the search results and the member page's similar list that send the
 * member, through /cam/{slot}/{tile} (counted per day and site), to the partner's link.
 */

/** The tiles' settings of a site; null on a site without them. */
export type CamTiles = {
  /** The partner's https address; {network}, {ref}, {sub1}, {sub2}, {sub3} are replaced by the member's tracking values. */
  link: string;
  title: string;
  text: string;
  cta: string;
  /** After how many member cards the first tile comes (0: first of all). */
  first: number;
  /** After how many more cards the next one comes. */
  every: number;
};

/** Where a tile is shown. */
export const camSlots = ["search", "similar"] as const;
export type CamSlot = (typeof camSlots)[number];

/** The tile pictures shipped with the project (public/cam/tile-{n}.svg); tiles take turns. */
export const camImageCount = 3;
export const camImagePath = (tile: number) => `/cam/tile-${(tile % camImageCount) + 1}.svg`;

/** The tracking values a link may name. */
export const camLinkValues = ["network", "ref", "sub1", "sub2", "sub3"] as const;

/** The partner's address for a click: the template with the tracking values (URL-encoded; a missing one is empty). */
export function camLink(template: string, tracking: Partial<Record<(typeof camLinkValues)[number], string | null>>): string {
  return template.replace(/\{(network|ref|sub1|sub2|sub3)\}/g, (_, name: (typeof camLinkValues)[number]) => encodeURIComponent(tracking[name] ?? ""));
}

/** A list with tiles placed among its items: after `first` items, then after every `every` more; never more than `max` tiles. */
export function withCamTiles<T>(items: readonly T[], tiles: Pick<CamTiles, "first" | "every"> | null, max = 3): ({ kind: "item"; item: T } | { kind: "cam"; tile: number })[] {
  const out: ({ kind: "item"; item: T } | { kind: "cam"; tile: number })[] = [];
  let tile = 0;
  items.forEach((item, index) => {
    if (tiles && tile < max && index >= tiles.first && (index - tiles.first) % Math.max(1, tiles.every) === 0) out.push({ kind: "cam", tile: tile++ });
    out.push({ kind: "item", item });
  });
  return out;
}
