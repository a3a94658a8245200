import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { inboxQueueNames } from "#contract/staff-inbox-queues";
import { InboxNextResponse, InboxResponse } from "#contract/staff-inbox";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffWrite } from "~/features/staff/staff-write.server";
import { utcMinute } from "~/features/staff/staff-format";
import { useInboxLive } from "~/features/staff/inbox-live";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { StaffTable } from "~/features/staff/staff-parts";

type Queue = (typeof inboxQueueNames)[number];

/** The operator inbox, its queues as tabs, the longest wait first; "Next" takes the oldest unclaimed. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().inbox;
  const queue: Queue = inboxQueueNames.find((q) => q === new URL(request.url).searchParams.get("queue")) ?? "new";
  const result = await apiFor(request, context).get("/api/staff/inbox.php", InboxResponse, { queue });
  if (!result.ok) throw new Response(null, { status: result.status });
  // A queue's size is counted up to a bound (api/domain/staff/inbox.ts): above it the tab says "1000+".
  const counts = Object.fromEntries(inboxQueueNames.map((name) => [name, `${result.data.counts[name]}${result.data.counts_capped.includes(name) ? "+" : ""}`])) as Record<Queue, string>;
  return { title: texts.metaTitle, description: texts.lead, texts, queue, counts, conversations: result.data.conversations };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const result = await staffWrite(request, context, "/api/staff/inbox-next.php", InboxNextResponse, {});
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  if (result.data.id === null) return data({ error: staffTexts().inbox.nothing }, { status: 200 });
  throw redirect(`/staff/inbox/${result.data.id}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffInbox() {
  const { texts, queue, counts, conversations } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useInboxLive();
  const c = texts.columns;
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
          <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
        </div>
        <Form method="post">
          <Button size="md" disabled={busy}>
            {texts.next}
          </Button>
        </Form>
      </div>
      {outcome?.error ? (
        <div className="mt-4">
          <FormAlert>{outcome.error}</FormAlert>
        </div>
      ) : null}
      <nav aria-label={texts.title} className="mt-6 flex flex-wrap gap-2" data-testid="inbox-queues">
        {inboxQueueNames.map((name) => (
          <Link
            key={name}
            to={`?queue=${name}`}
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
        <StaffTable testId="inbox" headings={[c.member, c.profile, c.site, c.since, c.claimed]} className="mt-4">
          {conversations.map((conversation) => (
            <tr key={conversation.id} data-testid="inbox-row">
              <td className="px-4 py-3">
                <Link to={`/staff/inbox/${conversation.id}`} className="font-semibold">
                  {conversation.member.name}
                </Link>{" "}
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${conversation.member.paying ? "bg-amber-100 text-amber-900" : "bg-gray-100 text-gray-700"}`}>
                  {conversation.member.paying ? texts.paying : texts.free}
                </span>
              </td>
              <td className="px-4 py-3">{conversation.profile.name}</td>
              <td className="px-4 py-3">{conversation.site.name}</td>
              <td className="whitespace-nowrap px-4 py-3 tabular-nums">{utcMinute(conversation.last_at)}</td>
              <td className="px-4 py-3">{conversation.claimed_by?.name ?? "–"}</td>
            </tr>
          ))}
        </StaffTable>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
