import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { inboxQueueNames } from "#contract/staff-inbox-queues";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { deskKeys, waitClass, waitedText, waitLevel } from "~/features/staff/desk";
import { Notice } from "~/components/ui/notice";
import { useInboxLive } from "~/features/staff/inbox-live";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { StaffErrorBoundary } from "~/features/staff/staff-error";
import { StaffTable } from "~/features/staff/staff-parts";
import { endpoints } from "#contract/endpoints/index";
import { may } from "#contract/endpoints/may";

type Queue = (typeof inboxQueueNames)[number];

/**
 * The operator inbox (docs/staff.md, the desk): its queues as tabs (by default the first that holds conversations),
 * the longest wait first with how long ("14 min", amber and red past the site's thresholds) and the last message's
 * start; filters by site, site-run profile and paying members (a GET form); "Next" (or N) takes the longest wait.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const texts = staffTexts().inbox;
  const url = new URL(request.url);
  const asked = inboxQueueNames.find((q) => q === url.searchParams.get("queue"));
  const digits = (name: string) => {
    const value = url.searchParams.get(name) ?? "";
    return /^\d{1,9}$/.test(value) && Number(value) > 0 ? value : undefined;
  };
  const filters = { site: digits("site"), profile: digits("site") ? digits("profile") : undefined, paying: url.searchParams.get("paying") === "1" ? "1" : undefined };
  const query = Object.fromEntries(Object.entries({ queue: asked, ...filters }).filter(([, value]) => value !== undefined)) as Record<string, string>;
  const result = await apiFor(request, context).call(endpoints.staffInbox, { query: query });
  if (!result.ok) throw new Response(null, { status: result.status });
  // A queue's size is counted up to a bound (api/domain/staff/inbox.ts): above it the tab says "1000+".
  const counts = Object.fromEntries(inboxQueueNames.map((name) => [name, `${result.data.counts[name]}${result.data.counts_capped.includes(name) ? "+" : ""}`])) as Record<Queue, string>;
  const done = url.searchParams.get("done");
  return {
    title: texts.metaTitle,
    description: texts.lead,
    texts,
    queue: result.data.queue,
    counts,
    conversations: result.data.conversations,
    thresholds: result.data.thresholds,
    sites: result.data.sites,
    profiles: result.data.profiles,
    filters,
    done: done === "left" ? texts.left : done === "nothing" ? (url.searchParams.get("sent") ? texts.detail.nothingNext : texts.nothing) : null,
    now: Date.now(),
    savedRepliesLink: may(staff.role, "replies.manage") ? staffTexts().nav.savedReplies : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await request.formData();
  const number = (name: string) => (/^\d{1,9}$/.test(String(form.get(name) ?? "")) && Number(form.get(name)) > 0 ? Number(form.get(name)) : undefined);
  const result = await staffWrite(request, context, endpoints.nextInboxConversation, { site: number("site"), profile: number("profile"), paying: form.get("paying") === "1" ? true : undefined });
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  if (result.data.id === null) return data({ error: staffTexts().inbox.nothing }, { status: 200 });
  const keep = [number("site") ? `site=${number("site")}` : "", number("site") && number("profile") ? `profile=${number("profile")}` : "", form.get("paying") === "1" ? "paying=1" : ""].filter(Boolean).join("&");
  throw redirect(`/staff/inbox/${result.data.id}${keep ? `?${keep}` : ""}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffInbox() {
  const { texts, queue, counts, conversations, thresholds, sites, profiles, filters, done, now, savedRepliesLink } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const nextForm = useRef<HTMLFormElement>(null);
  useInboxLive();
  // N (or Alt+N) takes the next conversation, unless the focus is in a field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.code !== deskKeys.next || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (!event.altKey && target && (target.closest("input, textarea, select, [contenteditable=true]") !== null)) return;
      event.preventDefault();
      nextForm.current?.requestSubmit();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  const c = texts.columns;
  const f = texts.filters;
  const filterQuery = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `&${key}=${value}`)
    .join("");
  const preview = (conversation: (typeof conversations)[number]) => {
    const last = conversation.preview;
    if (!last) return "";
    if (last.text) return last.text;
    return last.kind === "gift" || last.kind === "gif" || last.kind === "image" ? texts.previewKind[last.kind] : fill(texts.previewKind.other, { kind: last.kind });
  };
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
          <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
          {savedRepliesLink ? (
            <p className="mt-1 text-sm">
              <Link to="/staff/saved-replies">{savedRepliesLink}</Link>
            </p>
          ) : null}
        </div>
        <Form method="post" ref={nextForm}>
          {filters.site ? <input type="hidden" name="site" value={filters.site} /> : null}
          {filters.profile ? <input type="hidden" name="profile" value={filters.profile} /> : null}
          {filters.paying ? <input type="hidden" name="paying" value="1" /> : null}
          <Button size="md" disabled={busy} aria-keyshortcuts="N Alt+N">
            {texts.next}
          </Button>
          <p className="mt-1 text-xs text-gray-600">{texts.nextShortcut}</p>
        </Form>
      </div>
      {outcome?.error ? (
        <div className="mt-4">
          <FormAlert>{outcome.error}</FormAlert>
        </div>
      ) : null}
      {done ? (
        <div className="mt-4">
          <Notice testId="inbox-done">{done}</Notice>
        </div>
      ) : null}
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label={f.label} data-testid="inbox-filters">
        <input type="hidden" name="queue" value={queue} />
        <div>
          <label htmlFor="inbox-site" className="block text-sm font-medium text-gray-700">
            {f.site}
          </label>
          <select id="inbox-site" name="site" defaultValue={filters.site ?? ""} className={staffField}>
            <option value="">{f.any}</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
        {filters.site ? (
          <div>
            <label htmlFor="inbox-profile" className="block text-sm font-medium text-gray-700">
              {f.profile}
            </label>
            <select id="inbox-profile" name="profile" defaultValue={filters.profile ?? ""} className={staffField}>
              <option value="">{f.any}</option>
              {profiles.map((profile) => (
                <option key={profile.id} value={profile.id}>
                  {profile.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <label className="flex items-center gap-2 pb-2 text-sm text-gray-800">
          <input type="checkbox" name="paying" value="1" defaultChecked={filters.paying === "1"} />
          {f.paying}
        </label>
        <Button size="sm" variant="neutral">
          {f.apply}
        </Button>
        {filterQuery ? (
          <Link to={`?queue=${queue}`} className="pb-2 text-sm">
            {f.clear}
          </Link>
        ) : null}
      </Form>
      <nav aria-label={texts.title} className="mt-4 flex flex-wrap gap-2" data-testid="inbox-queues">
        {inboxQueueNames.map((name) => (
          <Link
            key={name}
            to={`?queue=${name}${filterQuery}`}
            aria-current={name === queue ? "page" : undefined}
            title={texts.queueHelp[name]}
            className={`rounded-full px-4 py-1.5 text-sm font-semibold ring-1 ${name === queue ? "bg-gray-900 text-white ring-gray-900" : "bg-white text-gray-800 ring-gray-300 hover:bg-gray-100"}`}
          >
            {texts.queues[name]} <span data-testid={`inbox-count-${name}`}>{counts[name]}</span>
          </Link>
        ))}
      </nav>
      <p className="mt-2 text-sm text-gray-600">{texts.queueHelp[queue]}</p>
      {conversations.length === 0 ? (
        <p className="mt-6 text-gray-700" data-testid="inbox-empty">
          {texts.empty}
        </p>
      ) : (
        <StaffTable testId="inbox" headings={[c.member, c.since, c.preview, c.profile, c.site, c.claimed, c.holder]} className="mt-4">
          {conversations.map((conversation) => {
            const level = queue === "new" || queue === "unreplied" ? waitLevel(conversation.last_at, now, thresholds.find((t) => t.site_id === conversation.site.id)) : "ok";
            return (
              <tr key={conversation.id} data-testid="inbox-row">
                <td className="px-4 py-3">
                  <Link to={`/staff/inbox/${conversation.id}${filterQuery ? `?${filterQuery.slice(1)}` : ""}`} className="font-semibold">
                    {conversation.member.name}
                  </Link>{" "}
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${conversation.member.paying ? "bg-amber-100 text-amber-900" : "bg-gray-100 text-gray-700"}`}>
                    {conversation.member.paying ? texts.paying : texts.free}
                  </span>
                </td>
                <td className="whitespace-nowrap px-4 py-3 tabular-nums" title={utcMinute(conversation.last_at)}>
                  <span className={waitClass[level]} data-testid="inbox-wait" data-level={level}>
                    {waitedText(texts, conversation.last_at, now)}
                  </span>
                  {level !== "ok" ? <span className="sr-only"> ({texts.waitLevel[level]})</span> : null}
                </td>
                <td className="max-w-xs truncate px-4 py-3 text-gray-700" data-testid="inbox-preview">
                  {preview(conversation)}
                </td>
                <td className="px-4 py-3">{conversation.profile.name}</td>
                <td className="px-4 py-3">{conversation.site.name}</td>
                <td className="px-4 py-3">{conversation.answered_by ?? "–"}</td>
                <td className="px-4 py-3">{conversation.claimed_by?.name ?? "–"}</td>
              </tr>
            );
          })}
        </StaffTable>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
