import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import type { LanderMember } from "~/features/landers/landers";
import { getSettings } from "~/utils/session.server";
import { getRegions } from "~/features/account/regions.server";
import { FictionalBadge, JoinLink, LanderEmpty, LanderSignup } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/**
 * Lander "maplanding": members nearby, grouped by region, on a map drawn here (a radar around the
 * visitor: the regions with the most members closest), nothing loaded from a map service. The visitor's
 * country comes first; region names come from the regions list web keeps a day per country.
 */
export const handle = { layout: "lander" };

type RegionGroup = { key: string; label: string; members: LanderMember[]; x: number; y: number };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "maplanding", count: 24, slug: params.slug });
  const settings = await getSettings(request, context);
  const t = data.t;
  const counts = new Map<string, number>();
  for (const m of data.members) counts.set(m.country, (counts.get(m.country) ?? 0) + 1);
  const busiest = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  const home = settings.geoip_country && counts.has(settings.geoip_country) ? settings.geoip_country : busiest;
  const regions = home ? await getRegions(request, context, home) : null;
  const countryName = new Intl.DisplayNames([data.locale], { type: "region", fallback: "code" });
  const groups = new Map<string, { label: string; members: LanderMember[] }>();
  for (const member of data.members) {
    const local = member.country === home;
    const regionName = local && member.region ? regions?.find((r) => r.code === member.region)?.name : undefined;
    const key = local ? `${member.country}-${regionName ? member.region : "other"}` : member.country;
    const label = local ? (regionName ?? member.city ?? t("maplanding.otherArea")) : (countryName.of(member.country) ?? member.country);
    const group = groups.get(key) ?? { label, members: [] };
    group.members.push(member);
    groups.set(key, group);
  }
  // The visitor's country first, each part by size; on the map the biggest groups sit closest to "you".
  const ordered = [...groups].sort(([a, ga], [b, gb]) => Number(b.startsWith(`${home}-`)) - Number(a.startsWith(`${home}-`)) || gb.members.length - ga.members.length);
  const placed: RegionGroup[] = ordered.map(([key, group], k) => {
    const angle = (k * 137.5 * Math.PI) / 180 - Math.PI / 2;
    const radius = Math.min(20 + k * 4, 42);
    return { key, ...group, x: Math.round((50 + radius * Math.cos(angle)) * 10) / 10, y: Math.round((50 + radius * Math.sin(angle) * 0.8) * 10) / 10 };
  });
  return {
    ...landerPayload(data),
    groups: placed,
    texts: {
      mapLabel: t("maplanding.mapLabel"),
      you: t("maplanding.you"),
      regionsTitle: home ? t("maplanding.regionsTitle", { country: countryName.of(home) ?? home }) : t("maplanding.regionsTitleAnywhere"),
      // Plural forms for 1..24 members per region.
      counts: Array.from({ length: 25 }, (_, count) => t("maplanding.regionCount", { count })),
    },
  };
}

export const meta = landerMeta;

export default function MapLanding() {
  const { headline, lead, members, shared, fictional, groups, texts } = useLoaderData<typeof loader>();
  const pins = groups.slice(0, 10);
  return (
    <div className="bg-gradient-to-b from-white to-primary-light/40" data-testid="lander" data-design="maplanding">
      <section className="container grid items-center gap-10 py-10 lg:grid-cols-2 lg:py-14">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 sm:text-5xl">{headline}</h1>
          <p className="mt-4 max-w-lg text-lg text-gray-600">{lead}</p>
          <div className="mt-8">
            <JoinLink>{shared.cta}</JoinLink>
          </div>
        </div>
        <figure className="relative mx-auto aspect-square w-full max-w-md" data-testid="member-map">
          <svg viewBox="0 0 100 100" role="img" aria-label={texts.mapLabel} className="h-full w-full">
            <defs>
              <radialGradient id="map-glow">
                <stop offset="0%" stopColor="var(--color-primary)" stopOpacity="0.25" />
                <stop offset="100%" stopColor="var(--color-primary)" stopOpacity="0" />
              </radialGradient>
              <pattern id="map-grid" width="5" height="5" patternUnits="userSpaceOnUse">
                <path d="M5 0H0V5" fill="none" stroke="#e5e7eb" strokeWidth="0.3" />
              </pattern>
            </defs>
            <rect width="100" height="100" rx="8" fill="#f8fafc" />
            <rect width="100" height="100" rx="8" fill="url(#map-grid)" />
            <path d="M8 62c10-4 16 6 26 2s12-14 24-12 14 10 26 6 10-2 10-2" fill="none" stroke="#bfdbfe" strokeWidth="2.2" strokeLinecap="round" />
            <path d="M20 10c4 12 14 14 16 26s-6 20 2 30 18 8 20 24" fill="none" stroke="#e5e7eb" strokeWidth="1.2" />
            <path d="M90 20c-12 4-18 16-30 18S40 30 30 38 18 60 6 64" fill="none" stroke="#e5e7eb" strokeWidth="1.2" />
            {[14, 26, 38].map((r) => (
              <ellipse key={r} cx="50" cy="50" rx={r} ry={r * 0.8} fill="none" stroke="var(--color-primary)" strokeOpacity="0.18" strokeDasharray="1.5 1.5" strokeWidth="0.4" />
            ))}
            <circle cx="50" cy="50" r="22" fill="url(#map-glow)" className="lander-pulse" />
            {pins.map((group) => (
              <g key={group.key}>
                <line x1="50" y1="50" x2={group.x} y2={group.y} stroke="var(--color-primary)" strokeOpacity="0.15" strokeWidth="0.4" />
                <circle cx={group.x} cy={group.y} r={2.2 + Math.min(group.members.length, 6) * 0.5} fill="var(--color-primary)" fillOpacity="0.9" stroke="white" strokeWidth="0.8" />
                <text x={group.x} y={group.y + 0.9} textAnchor="middle" fontSize="2.6" fontWeight="700" fill="white">
                  {group.members.length}
                </text>
                <text x={group.x} y={group.y + 6.5} textAnchor="middle" fontSize="2.7" fontWeight="600" fill="#374151" stroke="#f8fafc" strokeWidth="0.8" paintOrder="stroke">
                  {group.label.length > 18 ? `${group.label.slice(0, 17)}…` : group.label}
                </text>
              </g>
            ))}
            <circle cx="50" cy="50" r="2.4" fill="var(--color-secondary)" stroke="white" strokeWidth="0.8" />
            <text x="50" y="56.5" textAnchor="middle" fontSize="3" fontWeight="700" fill="var(--color-secondary)">
              {texts.you}
            </text>
          </svg>
        </figure>
      </section>
      <section className="container pb-6" aria-labelledby="map-regions">
        <h2 id="map-regions" className="text-xl font-bold text-gray-900">
          {texts.regionsTitle}
        </h2>
        {members.length === 0 ? (
          <div className="mt-6">
            <LanderEmpty texts={shared} />
          </div>
        ) : (
          <ul className="mt-6 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {groups.map((group) => (
              <li key={group.key} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-gray-100" data-testid="map-region">
                <h3 className="flex items-baseline justify-between gap-2">
                  <span className="truncate font-semibold text-gray-900">{group.label}</span>
                  <span className="shrink-0 text-sm text-gray-500">{texts.counts[Math.min(group.members.length, 24)]}</span>
                </h3>
                <ul className="mt-3 flex flex-wrap gap-3">
                  {group.members.map((member) => (
                    <li key={member.id} className="relative w-16 text-center" data-testid="lander-member">
                      <a href="#join" className="block text-gray-800 hover:text-primary">
                        <img src={member.thumb} alt="" width={64} height={64} loading="lazy" className="h-16 w-16 rounded-full bg-gray-100 object-cover ring-2 ring-primary-light" />
                        <span className="mt-1 block truncate text-xs font-medium">
                          {member.name}, {member.age}
                        </span>
                      </a>
                      {member.fictional ? <FictionalBadge label={shared.fictionalBadge} warning={fictional.warning} className="absolute -top-2 left-1/2 -translate-x-1/2 whitespace-nowrap !text-[10px]" /> : null}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>
      <LanderSignup texts={shared} />
    </div>
  );
}
