import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { TeasersResponse, type Teaser } from "#contract/members";
import type { Locale } from "#contract/locales";
import { apiFor } from "~/utils/api.server";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, getUser } from "~/utils/session.server";
import type { LanderDesign, LanderMember, LanderVariant } from "./landers";

/**
 * Landers: what every lander's loader does. A member is sent to the members area; a visitor gets
 * the site's members with a photo (one GET /api/teasers.php, public, no session) and the design's copy,
 * resolved here: the `landers` namespace is rendered on the server and never shipped to the browser.
 */

/** Campaign slugs naming a copy variant (niche words too); any other slug gets the design's own copy. */
const variantOfSlug: Record<string, LanderVariant> = {
  discreet: "discreet",
  secret: "discreet",
  mature: "mature",
  milf: "mature",
  gilf: "mature",
  curvy: "curvy",
  bbw: "curvy",
};

export function landerVariant(slug: string | undefined): LanderVariant | null {
  return slug ? (variantOfSlug[slug.toLowerCase()] ?? null) : null;
}

/** Texts every lander shows: the signup section, the empty state and the member labels. */
function sharedTexts(locale: Locale, site: string, fictionalSingular: string) {
  const t = fixedT(locale, "landers");
  return {
    cta: t("shared.cta"),
    joinTitle: t("shared.joinTitle"),
    joinLead: t("shared.joinLead", { site }),
    joinElsewhere: t("shared.joinElsewhere"),
    emptyTitle: t("shared.emptyTitle"),
    emptyLead: t("shared.emptyLead", { site }),
    // The site's own name for a site-run profile (settings fictional_singular), else the translated one.
    fictionalBadge: fictionalSingular || t("shared.fictionalBadge"),
    membersLabel: t("shared.membersLabel", { site }),
  };
}
export type LanderSharedTexts = ReturnType<typeof sharedTexts>;

type LoadOptions = {
  design: LanderDesign;
  /** How many members the design shows (the api answers at most 24). */
  count: number;
  slug?: string;
};

export async function loadLander(request: Request, context: AppLoadContext, { design, count, slug }: LoadOptions) {
  const locale = urlLocale(request);
  if (await getUser(request, context)) throw redirect("/members");
  const [settings, teasers] = await Promise.all([getSettings(request, context), apiFor(request, context).get("/api/teasers.php", TeasersResponse, { count })]);
  const t = fixedT(locale, "landers");
  const variant = design === "tinderswipe" ? null : landerVariant(slug);
  const copyKey = variant ? `variants.${variant}` : `${design}`;
  const headline = t(`${copyKey}.headline`);
  // A refused call (the per-client limit) shows the empty state: the page and its signup still work.
  const members: LanderMember[] = (teasers.ok ? teasers.data.members : []).flatMap((member) => (member.main_image ? [toLanderMember(member, settings.cdn_prefix)] : []));
  return {
    locale,
    design,
    variant,
    site: settings.name,
    niche: settings.niche,
    title: `${headline} | ${settings.name}`,
    description: t(`${copyKey}.lead`, { site: settings.name }),
    headline,
    lead: t(`${copyKey}.lead`, { site: settings.name }),
    shared: sharedTexts(locale, settings.name, settings.fictional_singular),
    fictional: { icon: settings.fictional_icon, warning: settings.fictional_warning || fixedT(locale, "member")("fictional.warning") },
    members,
    t,
  };
}

function toLanderMember(member: Teaser, cdn: string): LanderMember {
  const image = member.main_image!;
  return {
    id: member.id,
    name: member.name,
    age: member.age,
    city: member.city,
    country: member.country,
    region: member.region,
    photo: cdn + image.filename,
    thumb: cdn + image.thumb_filename,
    fictional: member.fictional,
  };
}

/** The loader's answer without the server-only translator. */
export function landerPayload<T extends { t: unknown }>(data: T): Omit<T, "t"> {
  const { t: _t, ...rest } = data;
  return rest;
}
