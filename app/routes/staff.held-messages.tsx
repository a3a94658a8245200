import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, utcMinute } from "~/features/staff/staff-format";
import { StaffTable } from "~/features/staff/staff-parts";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/**
 * Members' messages the contact filter held (docs/staff.md, contact details in chat), oldest first, for moderators and
 * admins: each approved (delivered) or rejected (undelivered, its credits given back) by its own button. Works without
 * JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().heldMessages;
  const url = new URL(request.url);
  const after = url.searchParams.get("after");
  const result = await apiFor(request, context).call(endpoints.heldMessages, { query: after && /^\d{1,9}$/.test(after) ? { after: Number(after) } : {} });
  if (!result.ok) throw new Response(null, { status: result.status });
  const credits = url.searchParams.get("refunded");
  const done = url.searchParams.get("done");
  const notice = done === "approved" ? texts.approved : done === "rejected" ? fill(texts.rejected, { credits: credits && /^\d{1,9}$/.test(credits) ? credits : "0" }) : null;
  return { title: texts.metaTitle, description: texts.lead, texts, queue: result.data, notice };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().heldMessages;
  const form = await request.formData();
  // "approve:12" / "reject:12": that message's own button.
  const [decision, id] = formText(form, "intent").split(":");
  if ((decision !== "approve" && decision !== "reject") || !id || !/^\d{1,9}$/.test(id)) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.decideHeldMessage, { id: Number(id), decision });
  if (!result.ok) return data({ error: result.status === 404 ? texts.gone : result.message }, { status: result.status });
  throw redirect(decision === "approve" ? "/staff/held-messages?done=approved" : `/staff/held-messages?done=rejected&refunded=${result.data.refunded}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffHeldMessages() {
  const { texts, queue, notice } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const c = texts.columns;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <div className="mt-4">{failed ? <FormAlert>{failed.error}</FormAlert> : notice ? <Notice testId="staff-held-done">{notice}</Notice> : null}</div>
      {queue.messages.length === 0 ? (
        <p className="mt-6 text-sm text-gray-700" data-testid="staff-held-empty">
          {texts.empty}
        </p>
      ) : (
        <StaffTable testId="staff-held-messages" headings={[c.sent, c.site, c.from, c.to, c.message, c.credits, c.actions]}>
          {queue.messages.map((message) => (
            <tr key={message.id} data-testid="staff-held-message">
              <td className="whitespace-nowrap px-4 py-2 tabular-nums">{utcMinute(message.created_at)}</td>
              <td className="px-4 py-2">{message.site.name}</td>
              <td className="px-4 py-2">
                <Link to={`/staff/members/${message.sender.user_id}`} className="underline">
                  {message.sender.name}
                </Link>
              </td>
              <td className="px-4 py-2">{message.recipient.name}</td>
              <td className="max-w-md whitespace-pre-wrap break-words px-4 py-2">{message.body}</td>
              <td className="px-4 py-2 tabular-nums">{message.credits}</td>
              <td className="px-4 py-2">
                <Form method="post" className="flex flex-wrap gap-2">
                  <Button size="sm" name="intent" value={`approve:${message.id}`} disabled={busy} aria-label={fill(texts.approveLabel, { id: message.id })}>
                    {texts.approve}
                  </Button>
                  <Button size="sm" variant="neutral" name="intent" value={`reject:${message.id}`} disabled={busy} aria-label={fill(texts.rejectLabel, { id: message.id })}>
                    {texts.reject}
                  </Button>
                </Form>
              </td>
            </tr>
          ))}
        </StaffTable>
      )}
      {queue.next_after !== null ? (
        <p className="mt-4">
          <Link to={`/staff/held-messages?after=${queue.next_after}`} className="text-sm font-semibold underline">
            {texts.more}
          </Link>
        </p>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
