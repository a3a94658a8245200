/** Landers: the nine designs (docs/product.md §2 routes), and what their pages show of a member. */
export const landerDesigns = ["tinderswipe", "alonetonight", "collagelanding", "gallery", "iconslanding", "maplanding", "socialnetwork", "transitionsvideolanding", "video"] as const;
export type LanderDesign = (typeof landerDesigns)[number];

/** Copy variants a campaign slug can choose (app/features/landers/landers.server.ts maps slugs to them). */
export const landerVariants = ["discreet", "mature", "curvy"] as const;
export type LanderVariant = (typeof landerVariants)[number];

/** A member as landers show them: always with a photo (the api lists only those). */
export type LanderMember = {
  id: number;
  name: string;
  age: number;
  city: string | null;
  country: string;
  region: string | null;
  photo: string;
  thumb: string;
  fictional: boolean;
};
