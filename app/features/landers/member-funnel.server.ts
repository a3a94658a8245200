import type { LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { queryId } from "#contract/input";
import { TeasersResponse, type Teaser } from "#contract/members";
import { nichePrefix } from "#contract/settings";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings, getUser } from "~/utils/session.server";
import { signupGate, type SignupGate } from "~/features/signup/signup-gate.server";

/**
 * Member funnels: /members/{id}/signup, /landing, /landing2/{slug?} and /landing3/{slug?} show a
 * visitor one member (photo, name, age, city) with the signup form; after signing up the new member is in
 * the chat with that member. Each page is one design; the slug (a niche's prefix, docs/product.md §1: she, bdsm, bbw,
 * gilf, milf, gay) chooses the copy, else the site's own niche does. A logged-in member goes to the member page.
 */
export type FunnelDesign = "signup" | "landing" | "landing2" | "landing3";

const nicheVariants = ["general", "she", "bdsm", "bbw", "gilf", "milf", "gay"] as const;
export type NicheVariant = (typeof nicheVariants)[number];

/** The copy variant: the slug's niche when it names one, else the site's niche (an unknown campaign slug is no error). */
export function nicheVariant(slug: string | undefined, siteNiche: number): NicheVariant {
  const bySlug = nicheVariants.find((v) => v !== "general" && v === slug?.toLowerCase());
  if (bySlug) return bySlug;
  const prefix = nichePrefix[siteNiche];
  return nicheVariants.find((v) => v === prefix) ?? "general";
}

/** Other members shown beside the funnel's member, per design. */
const othersShown: Record<FunnelDesign, number> = { signup: 0, landing: 0, landing2: 6, landing3: 0 };

export type MemberFunnelData = {
  design: FunnelDesign;
  member: Teaser;
  others: Teaser[];
  cdn: string;
  gate: SignupGate;
  minAge: number;
  askMessage: boolean;
  /** The fictional label of a site-run profile (docs/product.md §3 settings), as on the member page. */
  fictional: { icon: string; warning: string } | null;
  title: string;
  description: string;
  texts: FunnelTexts;
};

export type FunnelTexts = ReturnType<typeof funnelTexts>;

/** The page's texts, rendered here: the funnel namespace never ships to the browser. */
function funnelTexts(locale: Parameters<typeof fixedT>[0], variant: NicheVariant, member: Teaser) {
  const t = fixedT(locale, "funnel");
  const name = member.name;
  return {
    headline: t(`niche.${variant}.headline`, { name }),
    lead: t(`niche.${variant}.lead`, { name }),
    about: member.city ? t("aboutWithCity", { age: member.age, city: member.city }) : t("about", { age: member.age }),
    photoAlt: t("photoAlt", { name }),
    signupTitle: t("signupTitle", { name }),
    formTitle: t("formTitle"),
    formLead: t("formLead"),
    othersTitle: t("othersTitle"),
    composer: t("composer", { name }),
    composerHint: t("composerHint", { name }),
    signupLink: t("signupLink"),
  };
}

export async function loadMemberFunnel({ request, context, params }: LoaderFunctionArgs, design: FunnelDesign): Promise<MemberFunnelData> {
  const locale = urlLocale(request);
  const id = queryId.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const [user, settings] = await Promise.all([getUser(request, context), getSettings(request, context)]);
  if (user) throw redirect(`/members/${id.data}`);
  const result = await apiFor(request, context).get("/api/teasers.php", TeasersResponse, { id: id.data, count: othersShown[design] });
  if (!result.ok || !result.data.member) throw data(null, { status: result.ok ? 404 : result.status });
  const member = result.data.member;
  return {
    design,
    member,
    others: result.data.members,
    cdn: settings.cdn_prefix,
    gate: signupGate(settings, request),
    minAge: settings.min_age,
    askMessage: settings.ask_signup_message,
    fictional: member.fictional ? { icon: settings.fictional_icon, warning: settings.fictional_warning } : null,
    title: fixedT(locale, "funnel")("metaTitle", { name: member.name, site: settings.name }),
    description: metaDescription(locale, "funnel", { name: member.name, site: settings.name }),
    texts: funnelTexts(locale, nicheVariant(params.slug, settings.niche), member),
  };
}

/**
 * Where the funnel's signup sends the new member: the chat with the funnel's member, marked api_signup_complete so
 * a smartphone shows the activation reminder as a modal there (docs/product.md §4; app/components/layout/layouts.tsx).
 */
export function funnelNext(params: LoaderFunctionArgs["params"]): string | undefined {
  const id = queryId.safeParse(params.id);
  return id.success ? `/members/${id.data}/chat?api_signup_complete=1` : undefined;
}
