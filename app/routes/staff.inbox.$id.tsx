import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { randomBytes } from "node:crypto";
import { useRef } from "react";
import { InboxActionResponse, InboxConversation } from "#contract/staff-inbox";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { giftIds, giftImagePath, giftImageSide, isGiftId } from "#contract/gifts";
import { giftNames, staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { StaffCard } from "~/features/staff/staff-parts";
import { useInboxLive } from "~/features/staff/inbox-live";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";

/**
 * One conversation of the inbox. Opening it claims it for 5 minutes (unless another operator holds
 * it: then it is read-only and says who); the operator sees both profiles, the member's account and other
 * conversations, the shared notes, and answers as the site-run profile: text, one of its own photos or a gift (a form
 * per photo and per gift). Sending or leaving ends the claim; typing renews it (with JavaScript). Every form works
 * without JavaScript.
 */
function conversationId(params: { id?: string }): number {
  if (!params.id || !/^\d{1,9}$/.test(params.id)) throw data(null, { status: 404 });
  return Number(params.id);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const id = conversationId(params);
  const texts = staffTexts().inbox;
  const api = apiFor(request, context);
  // Opening claims (or renews the own claim); a conversation someone else holds opens read-only.
  const claim = await api.post("/api/staff/inbox-conversation.php", InboxActionResponse, { id, action: "claim" });
  if (!claim.ok) throw new Response(null, { status: claim.status === 400 ? 404 : claim.status });
  const result = await api.get("/api/staff/inbox-conversation.php", InboxConversation, { id });
  if (!result.ok) throw new Response(null, { status: result.status === 400 ? 404 : result.status });
  const done = new URL(request.url).searchParams.get("done");
  return {
    title: fill(texts.detail.metaTitle, { id }),
    description: texts.lead,
    texts: { ...texts.detail, queues: texts.queues, paying: texts.paying, free: texts.free },
    gifts: giftNames(),
    conversation: result.data,
    claim: claim.data.claim,
    done: done === "sent" || done === "notes" ? done : null,
    // One key per page load: a resent form sends the answer once (the api's idempotency key).
    sendKey: randomBytes(12).toString("base64url"),
  };
}

const intents = ["reply", "reply_photo", "reply_gift", "note", "release", "typing"] as const;

/** The api's answer for a form: text, photo and gift answers carry the page's idempotency key. */
function actionBody(id: number, intent: (typeof intents)[number], form: FormData) {
  switch (intent) {
    case "reply":
      return { id, action: intent, text: formText(form, "text"), key: formText(form, "key") };
    case "reply_photo":
      return { id, action: intent, photo_id: formNumber(form, "photo_id"), key: formText(form, "key") };
    case "reply_gift":
      return { id, action: intent, gift: formText(form, "gift"), key: formText(form, "key") };
    case "note":
      return { id, action: intent, text: formText(form, "text") };
    default:
      return { id, action: intent };
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const id = conversationId(params);
  const form = await request.formData();
  const intent = intents.find((i) => i === form.get("intent"));
  if (!intent) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, "/api/staff/inbox-conversation.php", InboxActionResponse, actionBody(id, intent, form));
  if (intent === "typing") return result.ok ? { intent, error: null } : data({ intent, error: result.message }, { status: result.status });
  if (!result.ok) return data({ intent, error: result.message }, { status: result.status });
  if (intent === "release") throw redirect("/staff/inbox");
  throw redirect(`/staff/inbox/${id}?done=${intent === "note" ? "notes" : "sent"}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffInboxConversation() {
  const { texts, gifts, conversation, claim, done, sendKey } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const typing = useFetcher();
  const lastTyping = useRef(0);
  useInboxLive();
  const { member, profile, entry } = conversation;
  const mine = claim?.mine ?? false;
  // While the operator types: at most every 3 s, renew the claim and show the member the typing indicator.
  const onInput = () => {
    if (Date.now() - lastTyping.current < 3000) return;
    lastTyping.current = Date.now();
    typing.submit({ intent: "typing" }, { method: "post" });
  };
  const error = (intent: string) => (failed && failed.intent === intent && failed.error ? <FormAlert>{failed.error}</FormAlert> : null);
  return (
    <>
      <p>
        <Link to="/staff/inbox" className="text-sm">
          ← {texts.back}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">
        {member.name} ↔ {profile.name} <span className="text-base font-normal text-gray-600">· {texts.queues[entry.queue]}</span>
      </h1>
      <div className="mt-3 space-y-2">
        {done ? <Notice testId="inbox-done">{done === "sent" ? texts.sent : texts.notesSaved}</Notice> : null}
        {claim && !mine ? (
          <p role="status" className="rounded-md bg-amber-50 px-4 py-2 text-sm text-gray-900 ring-1 ring-amber-200" data-testid="inbox-held">
            {fill(texts.heldBy, { name: claim.by ?? "", until: utcMinute(claim.until) })}
          </p>
        ) : claim ? (
          <p className="text-sm text-gray-600" data-testid="inbox-mine">
            {fill(texts.yours, { until: utcMinute(claim.until) })}
          </p>
        ) : null}
      </div>
      <div className="mt-4 grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-4">
          <StaffCard title={texts.thread}>
            <ol className="max-h-[60vh] space-y-2 overflow-y-auto" data-testid="inbox-thread">
              {conversation.messages.map((message) => (
                <li key={message.id} className={`flex flex-col ${message.from_member ? "items-start" : "items-end"}`} data-from={message.from_member ? "member" : "profile"}>
                  <p className={`max-w-[85%] whitespace-pre-line break-words rounded-2xl px-3 py-2 text-sm ${message.from_member ? "bg-gray-100 text-gray-900" : "bg-gray-900 text-white"}`}>
                    {message.kind === "text" || message.kind === "icebreaker" ? message.body : message.kind === "gift" && isGiftId(message.body) ? fill(texts.gift, { gift: gifts[message.body] }) : fill(texts.media, { kind: message.kind })}
                  </p>
                  <span className="mt-0.5 text-xs text-gray-600">
                    {fill(message.from_member ? texts.fromMember : texts.fromProfile, { name: message.from_member ? member.name : profile.name })} · {utcMinute(message.at)}
                  </span>
                </li>
              ))}
            </ol>
          </StaffCard>
          {mine ? (
            <StaffCard title={fill(texts.reply, { name: profile.name })}>
              <Form method="post" className="space-y-2">
                <input type="hidden" name="intent" value="reply" />
                <input type="hidden" name="key" value={sendKey} />
                <label htmlFor="inbox-reply" className="sr-only">
                  {fill(texts.reply, { name: profile.name })}
                </label>
                <textarea id="inbox-reply" name="text" rows={4} required maxLength={5000} onInput={onInput} className={staffField} />
                <div className="flex flex-wrap gap-2">
                  <Button size="md" disabled={busy}>
                    {texts.send}
                  </Button>
                </div>
              </Form>
              {error("reply")}
              <p className="mt-2 text-xs text-gray-600">{texts.costsNothing}</p>
              <details className="group mt-3" data-testid="inbox-photo-reply">
                <Summary>{fill(texts.photoReply, { name: profile.name })}</Summary>
                {profile.photos.length === 0 ? (
                  <p className="mt-2 text-sm text-gray-700">{fill(texts.noPhotos, { name: profile.name })}</p>
                ) : (
                  <ul className="mt-2 grid grid-cols-4 gap-2">
                    {profile.photos.map((photo, i) => (
                      <li key={photo.id}>
                        <Form method="post">
                          <input type="hidden" name="intent" value="reply_photo" />
                          <input type="hidden" name="key" value={`${sendKey}-p${photo.id}`} />
                          <input type="hidden" name="photo_id" value={photo.id} />
                          <button type="submit" disabled={busy} className={choice}>
                            <img src={photo.thumb_url} alt={fill(texts.sendPhoto, { name: profile.name, n: i + 1 })} width={96} height={96} loading="lazy" className="aspect-square w-full rounded-md object-cover" />
                          </button>
                        </Form>
                      </li>
                    ))}
                  </ul>
                )}
                {error("reply_photo")}
              </details>
              <details className="group mt-3" data-testid="inbox-gift-reply">
                <Summary>{texts.giftReply}</Summary>
                <ul className="mt-2 grid grid-cols-4 gap-2 sm:grid-cols-6">
                  {giftIds.map((gift) => (
                    <li key={gift}>
                      <Form method="post">
                        <input type="hidden" name="intent" value="reply_gift" />
                        <input type="hidden" name="key" value={`${sendKey}-g-${gift}`} />
                        <input type="hidden" name="gift" value={gift} />
                        <button type="submit" disabled={busy} className={`${choice} flex flex-col items-center gap-1 text-xs text-gray-700`} aria-label={fill(texts.sendGift, { gift: gifts[gift] })}>
                          <img src={giftImagePath(gift)} alt="" width={giftImageSide / 2} height={giftImageSide / 2} loading="lazy" />
                          <span>{gifts[gift]}</span>
                        </button>
                      </Form>
                    </li>
                  ))}
                </ul>
                {error("reply_gift")}
              </details>
              <Form method="post" className="mt-3">
                <input type="hidden" name="intent" value="release" />
                <Button size="sm" variant="neutral" disabled={busy}>
                  {texts.leave}
                </Button>
              </Form>
            </StaffCard>
          ) : null}
        </div>
        <div className="space-y-4">
          <StaffCard title={`${texts.member}: ${member.name}`} testId="inbox-member">
            <p className="text-sm text-gray-800">
              {fill(texts.age, { age: member.age })} · {member.gender} · {[member.city, member.country].filter(Boolean).join(", ")}
            </p>
            <p className="text-sm text-gray-800">
              {fill(texts.credits, { credits: member.credits })} · {member.paying ? texts.paying : texts.free}
            </p>
            <Photos photos={member.photos} name={member.name} />
            <p className="mt-2 whitespace-pre-line text-sm text-gray-700">{member.about_me}</p>
          </StaffCard>
          <StaffCard title={`${texts.profile}: ${profile.name}`}>
            <p className="text-sm text-gray-800">
              {fill(texts.age, { age: profile.age })} · {[profile.city, profile.country].filter(Boolean).join(", ")}
            </p>
            <Photos photos={profile.photos} name={profile.name} />
            <p className="mt-2 whitespace-pre-line text-sm text-gray-700">{profile.about_me}</p>
          </StaffCard>
          <StaffCard title={texts.notes}>
            <Form method="post" className="space-y-2">
              <input type="hidden" name="intent" value="note" />
              <label htmlFor="inbox-notes" className="sr-only">
                {texts.notes}
              </label>
              <textarea id="inbox-notes" name="text" rows={4} maxLength={4000} defaultValue={conversation.note?.body ?? ""} className={staffField} />
              <Button size="sm" variant="neutral" disabled={busy}>
                {texts.saveNotes}
              </Button>
            </Form>
            {error("note")}
          </StaffCard>
          <StaffCard title={texts.others}>
            {conversation.others.length === 0 ? (
              <p className="text-sm text-gray-700">{texts.noOthers}</p>
            ) : (
              <ul className="space-y-1 text-sm">
                {conversation.others.map((other) => (
                  <li key={other.id}>
                    <Link to={`/staff/inbox/${other.id}`}>{other.profile.name}</Link> · {utcMinute(other.last_at)}
                  </li>
                ))}
              </ul>
            )}
          </StaffCard>
        </div>
      </div>
    </>
  );
}

/** A photo or gift to answer with: a button of its own (a form each, so it works without JavaScript). */
const choice = "w-full rounded-lg p-1 ring-1 ring-gray-200 hover:bg-gray-50 hover:ring-gray-400 focus:outline-none focus-visible:ring-2 focus-visible:ring-primary disabled:opacity-60";

/** A disclosure's summary with a marker that turns when it is open (the site hides the browser's own marker). */
function Summary({ children }: { children: string }) {
  return (
    <summary className="flex items-center gap-1 text-sm font-semibold text-gray-900">
      <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90 motion-reduce:transition-none">
        ▸
      </span>
      <span>{children}</span>
    </summary>
  );
}

function Photos({ photos, name }: { photos: { id: number; thumb_url: string; url: string }[]; name: string }) {
  if (photos.length === 0) return null;
  return (
    <ul className="mt-2 grid grid-cols-4 gap-2">
      {photos.slice(0, 8).map((photo) => (
        <li key={photo.id}>
          <a href={photo.url} target="_blank" rel="noreferrer">
            <img src={photo.thumb_url} alt={`${name} ${photo.id}`} width={96} height={96} loading="lazy" className="aspect-square w-full rounded-md object-cover" />
          </a>
        </li>
      ))}
    </ul>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
