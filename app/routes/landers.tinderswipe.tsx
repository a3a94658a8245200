import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { landerPayload, loadLander } from "~/features/landers/landers.server";
import type { LanderMember } from "~/features/landers/landers";
import { HeartIcon } from "~/components/ui/icons";
import { FictionalBadge, LanderEmpty, LanderSignup } from "~/features/landers/lander-parts";
import { landerMeta } from "~/features/landers/lander-meta";

/**
 * Lander "tinderswipe": a stack of member cards, Like and Pass are links to the next card (?i=, ?liked=),
 * so swiping works without JavaScript; after the last card the signup form. With JavaScript the next card is a
 * client-side navigation that asks the api nothing (shouldRevalidate).
 */
export const handle = { layout: "lander" };

const cardCount = 8;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const data = await loadLander(request, context, { design: "tinderswipe", count: cardCount });
  const t = data.t;
  return {
    ...landerPayload(data),
    texts: {
      like: t("tinderswipe.like"),
      pass: t("tinderswipe.pass"),
      likeLabel: t("tinderswipe.likeLabel"),
      passLabel: t("tinderswipe.passLabel"),
      progress: t("tinderswipe.progress"),
      doneTitle: t("tinderswipe.doneTitle"),
      // One text per possible number of likes, in the language's plural forms (the count is known only in the browser).
      doneLeads: Array.from({ length: cardCount + 1 }, (_, count) => (count === 0 ? t("tinderswipe.doneLeadNone") : t("tinderswipe.doneLead", { count }))),
      restart: t("tinderswipe.restart"),
      stackLabel: t("tinderswipe.stackLabel"),
    },
  };
}

export const meta = landerMeta;

/** Only the card position changed: the members are the same, so the loader is not asked again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

/** A whole number from the query within 0..max; anything else is 0. */
function position(value: string | null, max: number): number {
  const n = value && /^\d{1,3}$/.test(value) ? Number(value) : 0;
  return Math.min(n, max);
}

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ""));

export default function TinderSwipe() {
  const { headline, lead, members, texts, shared, fictional } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const index = position(params.get("i"), members.length);
  const liked = Math.min(position(params.get("liked"), members.length), index);
  const done = members.length > 0 && index >= members.length;
  const next = (like: boolean) => `?i=${index + 1}&liked=${liked + (like ? 1 : 0)}`;

  return (
    <div className="bg-gradient-to-b from-primary-light via-white to-gray-50" data-testid="lander" data-design="tinderswipe">
      <section className="container pt-8 pb-2 text-center sm:pt-12">
        <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 sm:text-4xl">{headline}</h1>
        <p className="mx-auto mt-3 max-w-xl text-lg text-gray-600">{lead}</p>
      </section>

      {members.length === 0 ? (
        <div className="container py-8">
          <LanderEmpty texts={shared} />
        </div>
      ) : done ? (
        <div className="container pt-6 text-center" data-testid="swipe-done">
          <div className="mx-auto flex w-fit -space-x-4" aria-hidden="true">
            {members.slice(0, 4).map((m) => (
              <img key={m.id} src={m.thumb} alt="" width={64} height={64} className="h-16 w-16 rounded-full border-4 border-white bg-gray-100 object-cover shadow" />
            ))}
          </div>
        </div>
      ) : (
        <section aria-label={texts.stackLabel} className="container flex flex-col items-center py-6">
          <p className="text-sm font-medium text-gray-500" aria-live="polite" data-testid="swipe-progress">
            {fill(texts.progress, { current: index + 1, total: members.length })}
          </p>
          <div className="relative mt-4 h-[28rem] w-full max-w-sm sm:h-[32rem]">
            {members
              .slice(index, index + 3)
              .reverse()
              .map((member, i, shown) => (
                <SwipeCard key={member.id} member={member} depth={shown.length - 1 - i} fictional={{ label: shared.fictionalBadge, warning: fictional.warning }} />
              ))}
          </div>
          <div className="mt-6 flex items-center gap-6">
            <Link
              to={next(false)}
              preventScrollReset
              replace
              aria-label={fill(texts.passLabel, { name: members[index]!.name })}
              className="flex h-16 w-16 items-center justify-center rounded-full bg-white text-gray-500 shadow-lg ring-1 ring-gray-200 transition hover:scale-105 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gray-500 motion-reduce:transition-none"
              data-testid="swipe-pass"
            >
              <svg viewBox="0 0 24 24" className="h-7 w-7" fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" aria-hidden="true">
                <path d="M6 6l12 12M18 6 6 18" />
              </svg>
              <span className="sr-only">{texts.pass}</span>
            </Link>
            <Link
              to={next(true)}
              preventScrollReset
              replace
              aria-label={fill(texts.likeLabel, { name: members[index]!.name })}
              className="flex h-20 w-20 items-center justify-center rounded-full bg-primary text-white shadow-xl shadow-primary/40 transition hover:scale-105 hover:bg-primary-dark hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary motion-reduce:transition-none"
              data-testid="swipe-like"
            >
              <HeartIcon className="h-9 w-9" />
              <span className="sr-only">{texts.like}</span>
            </Link>
          </div>
        </section>
      )}

      {members.length === 0 || done ? (
        <LanderSignup
          texts={shared}
          heading={done ? texts.doneTitle : undefined}
          lead={done ? texts.doneLeads[liked] : undefined}
        />
      ) : null}
      {done ? (
        <p className="pb-10 text-center">
          <Link to="?i=0" preventScrollReset className="text-sm font-medium">
            {texts.restart}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function SwipeCard({ member, depth, fictional }: { member: LanderMember; depth: number; fictional: { label: string; warning: string } }) {
  const offsets = ["", "translate-y-3 scale-95 -rotate-2", "translate-y-6 scale-90 rotate-2"];
  return (
    <article
      aria-hidden={depth > 0 ? true : undefined}
      className={`absolute inset-0 overflow-hidden rounded-3xl bg-gray-200 shadow-2xl ring-1 ring-black/5 ${offsets[depth] ?? ""} ${depth === 0 ? "lander-card-in" : "opacity-90"}`}
      data-testid={depth === 0 ? "swipe-card" : undefined}
    >
      {member.fictional ? <FictionalBadge label={fictional.label} warning={fictional.warning} className="absolute left-3 top-3" /> : null}
      <img src={member.photo} alt={depth === 0 ? member.name : ""} width={384} height={512} className="h-full w-full object-cover" loading={depth === 0 ? "eager" : "lazy"} />
      <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/80 via-black/40 to-transparent p-5 pt-16 text-white">
        <p className="text-2xl font-bold" data-testid="lander-member">
          {member.name}, <span className="font-normal">{member.age}</span>
        </p>
        {member.city ? <p className="text-white/85">{member.city}</p> : null}
      </div>
    </article>
  );
}
