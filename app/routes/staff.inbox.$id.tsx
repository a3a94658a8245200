import { browserPaths } from "#contract/endpoints/paths";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { randomBytes } from "node:crypto";
import { Fragment, useEffect, useRef, useState, type FormEvent } from "react";
import type { InboxActionResponse } from "#contract/staff-inbox";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { giftIds, giftImagePath, giftImageSide, isGiftId } from "#contract/gifts";
import { giftNames, staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { StaffCard } from "~/features/staff/staff-parts";
import { useInboxLive } from "~/features/staff/inbox-live";
import { deskKeys, fillSavedReply, readDraft, rememberVisit, waitedText, writeDraft } from "~/features/staff/desk";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

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
  const url = new URL(request.url);
  const done = url.searchParams.get("done");
  // The conversation an answer was just sent in: the page after the send does not claim it again; nor does a live
  // update of the page (?peek, read when the inbox changes: a claim lost meanwhile is shown, not taken back).
  const sentHere = url.searchParams.get("sent") === String(id);
  const peek = url.searchParams.has("peek");
  let claim: InboxActionResponse["claim"] = null;
  if (!sentHere && !peek) {
    // Opening claims (or renews the own claim, ending any other); a conversation someone else holds opens read-only.
    const claimed = await api.call(endpoints.actInInbox, { body: { id, action: "claim" } });
    if (!claimed.ok) throw new Response(null, { status: claimed.status === 400 ? 404 : claimed.status });
    claim = claimed.data.claim;
  }
  const result = await api.call(endpoints.inboxConversation, { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status === 400 ? 404 : result.status });
  const heldBy = result.data.entry.claimed_by;
  if (sentHere && heldBy && !result.data.mine) claim = { mine: false, by: heldBy.name, until: "" };
  // A saved reply inserted without JavaScript (a GET of ?insert=): the box starts with it.
  const insert = Number(url.searchParams.get("insert"));
  const inserted = result.data.saved_replies.find((reply) => reply.id === insert);
  return {
    title: fill(texts.detail.metaTitle, { id }),
    description: texts.lead,
    texts: { ...texts.detail, queues: texts.queues, paying: texts.paying, free: texts.free, minutes: texts.minutes, hours: texts.hours, days: texts.days },
    gifts: giftNames(),
    conversation: result.data,
    claim,
    sent: done === "sent" ? url.searchParams.get("sent") : null,
    done: done === "notes" ? done : null,
    prefill: inserted ? fillSavedReply(inserted.body, { member: result.data.member.name, profile: result.data.profile.name }) : "",
    // One key per page load: a resent form sends the answer once (the api's idempotency key).
    sendKey: randomBytes(12).toString("base64url"),
    now: Date.now(),
  };
}

const intents = ["reply", "reply_reclaim", "reply_next", "reply_photo", "reply_gift", "note", "release", "typing", "claim", "next", "insert"] as const;
type Intent = (typeof intents)[number];
type Lost = "taken" | "expired" | "left";

/** The api's answer for a form: text, photo and gift answers carry the page's idempotency key. */
function actionBody(id: number, intent: Intent, form: FormData) {
  switch (intent) {
    case "reply":
    case "reply_reclaim":
    case "reply_next":
      return { id, action: "reply", text: formText(form, "text"), key: formText(form, "key") };
    case "reply_photo":
      return { id, action: intent, photo_id: formNumber(form, "photo_id"), key: formText(form, "key") };
    case "reply_gift":
      return { id, action: intent, gift: formText(form, "gift"), key: formText(form, "key") };
    case "note":
      return { id, action: intent, text: formText(form, "text") };
    case "release": {
      const until = formText(form, "until");
      return until ? { id, action: intent, until } : { id, action: intent };
    }
    default:
      return { id, action: intent };
  }
}

/** The inbox's filters in a desk URL: for the api's "next", and as "&site=…" to keep in the next URL. */
function deskFilters(url: URL): { body: { site?: number; profile?: number; paying?: boolean }; query: string } {
  const number = (name: string) => {
    const value = url.searchParams.get(name) ?? "";
    return /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
  };
  const site = number("site");
  const profile = site ? number("profile") : undefined;
  const paying = url.searchParams.get("paying") === "1" ? true : undefined;
  const query = [site ? `&site=${site}` : "", profile ? `&profile=${profile}` : "", paying ? "&paying=1" : ""].join("");
  return { body: { site, profile, paying }, query };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const id = conversationId(params);
  const form = await request.formData();
  const requested = form.get("intent");
  // A saved reply's button in the answer form (without JavaScript): the typed text comes back with the reply added.
  if (typeof requested === "string" && requested.startsWith("insert:")) {
    const text = typeof form.get("text") === "string" ? String(form.get("text")) : "";
    const api = apiFor(request, context);
    const conversation = await api.call(endpoints.inboxConversation, { query: { id } });
    if (!conversation.ok) throw new Response(null, { status: conversation.status === 400 ? 404 : conversation.status });
    const reply = conversation.data.saved_replies.find((r) => `insert:${r.id}` === requested);
    const filled = reply ? fillSavedReply(reply.body, { member: conversation.data.member.name, profile: conversation.data.profile.name }) : "";
    return { intent: "insert" as const, error: null, lost: null, text: text ? `${text}${text.endsWith(" ") || text.endsWith("\n") ? "" : " "}${filled}` : filled, reclaim: form.get("reclaim") === "1" };
  }
  const intent = intents.find((i) => i === requested);
  if (!intent || intent === "insert") throw data(null, { status: 400 });
  const api = apiFor(request, context);
  // The inbox's filters the desk was opened with (site, profile, paying) hold for "next" and "send and next" too.
  const desk = deskFilters(new URL(request.url));
  const nextOf = () => staffWrite(request, context, endpoints.nextInboxConversation, { ...desk.body, skip: id });
  if (intent === "next") {
    const next = await nextOf();
    if (!next.ok) return data({ intent, error: next.message, lost: null, text: "", reclaim: false }, { status: next.status });
    throw redirect(next.data.id === null ? `/staff/inbox?done=nothing${desk.query}` : `/staff/inbox/${next.data.id}?${desk.query.slice(1)}`);
  }
  const typed = formText(form, "text");
  // Sending after the claim was lost or released (the box of the page after a send): take the conversation again
  // first; if someone else holds it, the send below says so and keeps the text.
  const sending = intent === "reply" || intent === "reply_reclaim" || intent === "reply_next";
  if (intent === "reply_reclaim" || ((sending || intent === "reply_photo" || intent === "reply_gift") && form.get("reclaim") === "1")) {
    await api.call(endpoints.actInInbox, { body: { id, action: "claim" } });
  }
  // The form's fields checked with the endpoint's own schema (contract/endpoints/staff.ts) before they are sent.
  const body = endpoints.actInInbox.body.safeParse(actionBody(id, intent, form));
  if (!body.success) return data({ intent, error: body.error.issues.map((issue) => issue.message).join(" "), lost: null as Lost | null, text: sending ? typed : "", reclaim: false }, { status: 400 });
  const result = await api.call(endpoints.actInInbox, { body: body.data });
  if (!result.ok) {
    const lost = (["taken", "expired", "left"] as const).find((kind) => kind === result.error.params?.claim) ?? null;
    const fields = Object.values(result.error.fields ?? {}).flat();
    const message = lost ? fill(staffTexts().inbox.detail.lost[lost], { name: String(result.error.params?.by ?? "") }) : fields.length ? fields.join(" ") : result.error.message;
    return data({ intent, error: message, lost: lost as Lost | null, text: sending ? typed : "", reclaim: lost !== null && lost !== "taken" }, { status: result.status });
  }
  if (intent === "typing") return { intent, error: null, lost: null, text: "", reclaim: false, until: result.data.claim?.until ?? null };
  if (intent === "release") throw redirect(`/staff/inbox?done=left${desk.query}`);
  if (intent === "claim") throw redirect(`/staff/inbox/${id}?${desk.query.slice(1)}`);
  if (intent === "note") throw redirect(`/staff/inbox/${id}?done=notes${desk.query}`);
  if (intent === "reply_next") {
    const next = await nextOf();
    if (next.ok && next.data.id !== null) throw redirect(`/staff/inbox/${next.data.id}?done=sent&sent=${id}${desk.query}`);
    throw redirect(`/staff/inbox?done=nothing&sent=${id}${desk.query}`);
  }
  throw redirect(`/staff/inbox/${id}?done=sent&sent=${id}${desk.query}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

/**
 * Loading this page claims the conversation: it is loaded again only when the operator does something (a form, a
 * link), never as a mere refresh; live changes are read with ?peek (below), which claims nothing.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formData, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  // Typing renews the claim in the background: nothing on the page changes.
  if (formData?.get("intent") === "typing") return false;
  return formMethod !== undefined || currentUrl.href !== nextUrl.href ? defaultShouldRevalidate : false;
};

export default function StaffInboxConversation() {
  const loaded = useLoaderData<typeof loader>();
  // The page as the inbox's live events last showed it (?peek): newer than the load, it tells a claim lost meanwhile.
  const live = useFetcher<typeof loader>();
  const peeked = live.data && live.data.conversation.entry.id === loaded.conversation.entry.id && live.data.now > loaded.now ? live.data : null;
  const { texts, gifts, claim: loadedClaim, done, sent, prefill, sendKey, now } = loaded;
  const conversation = peeked?.conversation ?? loaded.conversation;
  const peekLost = Boolean(loadedClaim?.mine && peeked && !peeked.conversation.mine);
  const claim = peekLost ? (peeked?.conversation.entry.claimed_by ? { mine: false, by: peeked.conversation.entry.claimed_by.name, until: "" } : null) : loadedClaim;
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const typing = useFetcher<typeof action>();
  const navigate = useNavigate();
  const location = useLocation();
  const lastTyping = useRef(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const replyForm = useRef<HTMLFormElement>(null);
  const [restored, setRestored] = useState(false);
  const previous = useRef<number | null>(null);
  const { member, profile, entry } = conversation;
  const id = entry.id;
  useInboxLive(() => {
    if (live.state === "idle") live.load(`/staff/inbox/${id}?peek=1`);
  });
  const mine = claim?.mine ?? false;
  const heldByOther = Boolean(claim && !claim.mine);
  const lostError =
    failed && "lost" in failed && failed.lost
      ? failed.error
      : peekLost
        ? fill(peeked?.conversation.entry.claimed_by ? texts.lost.taken : texts.lost.left, { name: peeked?.conversation.entry.claimed_by?.name ?? "" })
        : null;
  // The answer box shows while the conversation is the operator's, after their own send (sending again takes it back),
  // and when their claim was lost but nobody else holds it (their draft kept, sending takes it back).
  const reclaim = !mine && !heldByOther;
  const showForm = mine || Boolean(lostError) || (reclaim && sent !== null);
  // Sending from a box the operator does not hold (after their send, or a lost claim) takes the conversation first.
  // (After a lost claim a plain send is refused again: taking it back is the operator's choice, "Take it back and send".)
  const reclaimField = !mine && sent !== null && !lostError ? <input type="hidden" name="reclaim" value="1" /> : null;
  const typingData = typing.data;
  // The end of the claim the page holds (typing renews it): a release beacon ends only that claim.
  const claimUntil = mine ? ((typingData && "until" in typingData ? typingData.until : null) ?? claim?.until ?? null) : null;
  const until = useRef<string | null>(claimUntil);
  useEffect(() => {
    until.current = claimUntil;
  }, [claimUntil]);
  const typingLost = typingData && typingData.lost ? typingData.error : null;
  const draftText = failed && "text" in failed && failed.text ? failed.text : prefill;
  const savedReplies = conversation.saved_replies.map((reply) => ({ ...reply, text: fillSavedReply(reply.body, { member: member.name, profile: profile.name }) }));

  // On open: focus in the box, the unsent draft of this conversation back (sessionStorage), the trail for Alt+P; after
  // a send, the sent conversation's draft is gone.
  useEffect(() => {
    if (sent) writeDraft(Number(sent), "");
    previous.current = rememberVisit(id);
    const element = box.current;
    if (!element) return;
    const draft = readDraft(id);
    if (!element.value && draft) {
      element.value = draft;
      setRestored(true);
    }
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, [id, sent, showForm]);

  // Leaving the page (closing the tab, going elsewhere) ends the claim it holds: a beacon with the claim's end time, so
  // a reload (whose own load renewed the claim) is not undone by its late beacon. Without JavaScript: the expiry.
  const release = () => {
    if (mine) releaseBeacon(id, until.current);
  };
  useEffect(() => {
    if (!mine) return;
    const release = () => releaseBeacon(id, until.current);
    window.addEventListener("pagehide", release);
    return () => {
      window.removeEventListener("pagehide", release);
    };
  }, [id, mine]);

  const submitWith = (name: string) => {
    const button = replyForm.current?.querySelector<HTMLButtonElement>(`button[name=intent][value=${name}]`);
    if (button && replyForm.current) replyForm.current.requestSubmit(button);
  };
  const submitForm = (testId: string) => document.querySelector<HTMLFormElement>(`form[data-desk=${testId}]`)?.requestSubmit();
  const insertReply = (text: string) => {
    const element = box.current;
    if (!element) return;
    const start = element.selectionStart ?? element.value.length;
    const end = element.selectionEnd ?? element.value.length;
    // As the form without JavaScript does: a space between what was typed and the reply.
    const before = element.value.slice(0, start);
    element.setRangeText(before && !/\s$/.test(before) ? ` ${text}` : text, start, end, "end");
    element.focus();
    writeDraft(id, element.value);
  };

  // The desk's shortcuts (listed on the page): Alt+N next, Alt+P previous, Alt+C take, Alt+L leave, Alt+1..9 a saved
  // reply, Alt+R the saved replies; in the box, Ctrl/Cmd+Enter sends and Ctrl/Cmd+Shift+Enter sends and opens the next.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter" && event.target === box.current) {
        event.preventDefault();
        submitWith(event.shiftKey ? "reply_next" : "reply");
        return;
      }
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const digit = /^Digit([1-9])$/.exec(event.code);
      const action =
        event.code === deskKeys.next
          ? () => submitForm("next")
          : event.code === deskKeys.previous
            ? () => previous.current !== null && navigate(`/staff/inbox/${previous.current}`)
            : event.code === deskKeys.claim
              ? () => submitForm("claim")
              : event.code === deskKeys.leave
                ? () => submitForm("leave")
                : event.code === deskKeys.savedReplies
                  ? () => document.querySelector<HTMLElement>("[data-testid=saved-replies] button")?.focus()
                  : digit
                    ? () => {
                        const reply = savedReplies[Number(digit[1]) - 1];
                        if (reply) insertReply(reply.text);
                      }
                    : null;
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });

  // While the operator types: keep the draft, and at most every 3 s renew the claim and show the member the typing indicator.
  const onInput = (event: FormEvent<HTMLTextAreaElement>) => {
    writeDraft(id, event.currentTarget.value);
    if (!mine || Date.now() - lastTyping.current < 3000) return;
    lastTyping.current = Date.now();
    typing.submit({ intent: "typing" }, { method: "post" });
  };
  const error = (intent: string) => (failed && failed.intent === intent && failed.error && !failed.lost ? <FormAlert>{failed.error}</FormAlert> : null);
  const lostNotice = lostError ?? typingLost;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link to="/staff/inbox" className="text-sm" onClick={release}>
          ← {texts.back}
        </Link>
        <div className="flex flex-wrap gap-2">
          <Form method="post" data-desk="next">
            <input type="hidden" name="intent" value="next" />
            <Button size="sm" variant="neutral" disabled={busy} aria-keyshortcuts="Alt+N">
              {texts.next}
            </Button>
          </Form>
          {mine ? (
            <Form method="post" data-desk="leave">
              <input type="hidden" name="intent" value="release" />
              <Button size="sm" variant="neutral" disabled={busy} aria-keyshortcuts="Alt+L">
                {texts.leave}
              </Button>
            </Form>
          ) : !heldByOther ? (
            <Form method="post" data-desk="claim">
              <input type="hidden" name="intent" value="claim" />
              <Button size="sm" variant="neutral" disabled={busy} aria-keyshortcuts="Alt+C">
                {texts.claim}
              </Button>
            </Form>
          ) : null}
        </div>
      </div>
      <h1 className="mt-2 text-xl font-bold text-gray-900">
        {member.name} ↔ {profile.name}{" "}
        <span className="text-base font-normal text-gray-600">
          · {texts.queues[entry.queue]} · {entry.site.name}
          {entry.last_from_member ? <> · {fill(texts.waiting, { time: waitedText(texts, entry.last_at, now) })}</> : null}
        </span>
      </h1>
      <div className="mt-2 space-y-2">
        {sent ? <Notice testId="inbox-done">{texts.sentNoClaim}</Notice> : null}
        {done ? <Notice testId="inbox-done">{texts.notesSaved}</Notice> : null}
        {lostNotice ? (
          <p role="alert" className="rounded-md bg-amber-50 px-4 py-2 text-sm text-gray-900 ring-1 ring-amber-300" data-testid="inbox-lost">
            {lostNotice}
          </p>
        ) : null}
        {restored && !lostNotice ? (
          <p role="status" className="text-sm text-gray-700" data-testid="inbox-restored">
            {texts.draftRestored}
          </p>
        ) : null}
        {heldByOther ? (
          <p role="status" className="rounded-md bg-amber-50 px-4 py-2 text-sm text-gray-900 ring-1 ring-amber-200" data-testid="inbox-held">
            {fill(texts.heldBy, { name: claim?.by ?? entry.claimed_by?.name ?? "", until: claim?.until ? utcMinute(claim.until) : "" })}
          </p>
        ) : mine && claim ? (
          <p className="text-sm text-gray-600" data-testid="inbox-mine">
            {fill(texts.yours, { until: utcMinute(claim.until) })}
          </p>
        ) : null}
      </div>
      <div className="mt-3 grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-3">
          <section aria-label={texts.thread} className="rounded-xl bg-white ring-1 ring-gray-200">
            {/* Reversed flex: the list opens scrolled to its end (the newest message), also without JavaScript. */}
            <div className="flex max-h-[40vh] flex-col-reverse overflow-y-auto p-3 lg:max-h-[45vh]" tabIndex={0} aria-label={texts.thread} data-testid="inbox-thread-scroll">
              <ol className="space-y-2" data-testid="inbox-thread">
                {conversation.messages.map((message) => {
                  const name = message.from_member ? member.name : profile.name;
                  return (
                    <li key={message.id} className={`flex flex-col ${message.from_member ? "items-start" : "items-end"}`} data-from={message.from_member ? "member" : "profile"}>
                      {message.kind === "image" ? (
                        <a href={`/staff/inbox/media/${message.id}`} target="_blank" rel="noreferrer">
                          <img src={`/staff/inbox/media/${message.id}?size=thumb`} alt={fill(texts.image, { name })} width={message.media?.width ?? 160} height={message.media?.height ?? 160} className="max-h-48 w-auto rounded-xl" data-testid="inbox-image" />
                        </a>
                      ) : message.kind === "gif" && message.media?.gif ? (
                        <img src={`${browserPaths.gif}?id=${encodeURIComponent(message.media.gif)}&size=thumb`} alt={fill(texts.gif, { name })} width={message.media.width} height={message.media.height} className="max-h-40 w-auto rounded-xl" data-testid="inbox-gif" />
                      ) : message.kind === "gift" && isGiftId(message.body) ? (
                        <p className="flex items-center gap-2 rounded-2xl bg-gray-100 px-3 py-2 text-sm text-gray-900">
                          <img src={giftImagePath(message.body)} alt="" width={giftImageSide / 2} height={giftImageSide / 2} loading="lazy" />
                          {fill(texts.gift, { gift: gifts[message.body] })}
                        </p>
                      ) : (
                        <p className={`max-w-[85%] whitespace-pre-line break-words rounded-2xl px-3 py-2 text-sm ${message.from_member ? "bg-gray-100 text-gray-900" : "bg-gray-900 text-white"}`}>
                          {message.kind === "text" || message.kind === "icebreaker" ? message.body : fill(texts.media, { kind: message.kind })}
                        </p>
                      )}
                      <span className="mt-0.5 text-xs text-gray-600">
                        {fill(message.from_member ? texts.fromMember : texts.fromProfile, { name })} · {utcMinute(message.at)}
                      </span>
                    </li>
                  );
                })}
              </ol>
            </div>
          </section>
          {showForm ? (
            <section className="rounded-xl bg-white p-3 ring-1 ring-gray-200" data-testid="inbox-answer">
              <Form method="post" className="space-y-2" ref={replyForm}>
                <input type="hidden" name="key" value={sendKey} />
                {reclaimField}
                <label htmlFor="inbox-reply" className="block text-sm font-semibold text-gray-900">
                  {fill(texts.reply, { name: profile.name })}
                </label>
                <textarea
                  // A new box for each page the operator goes to (a send clears it), not for each refresh of the data.
                  key={location.key}
                  ref={box}
                  id="inbox-reply"
                  name="text"
                  rows={3}
                  maxLength={5000}
                  onInput={onInput}
                  defaultValue={draftText}
                  // The desk's box is the page's one task (docs/staff.md): the focus starts there, also without JavaScript.
                  autoFocus
                  aria-keyshortcuts="Control+Enter Meta+Enter"
                  className={staffField}
                />
                <div className="flex flex-wrap items-center gap-2">
                  <Button size="md" name="intent" value="reply" disabled={busy}>
                    {texts.send}
                  </Button>
                  <Button size="md" variant="secondary" name="intent" value="reply_next" disabled={busy} aria-keyshortcuts="Control+Shift+Enter Meta+Shift+Enter">
                    {texts.sendNext}
                  </Button>
                  {lostNotice && !heldByOther ? (
                    <Button size="md" variant="neutral" name="intent" value="reply_reclaim" disabled={busy}>
                      {texts.reclaimSend}
                    </Button>
                  ) : null}
                  <span className="text-xs text-gray-600">{texts.costsNothing}</span>
                </div>
                {error("reply") ?? error("reply_next") ?? error("reply_reclaim")}
                <details className="group" data-testid="saved-replies" open={savedReplies.length > 0}>
                  <Summary>{texts.savedReplies}</Summary>
                  {savedReplies.length === 0 ? (
                    <p className="mt-1 text-sm text-gray-700">{texts.noSavedReplies}</p>
                  ) : (
                    <ul className="mt-1 flex flex-wrap gap-2">
                      {savedReplies.map((reply, i) => (
                        <li key={reply.id}>
                          <button
                            type="submit"
                            name="intent"
                            value={`insert:${reply.id}`}
                            formNoValidate
                            title={reply.text}
                            aria-keyshortcuts={i < 9 ? `Alt+${i + 1}` : undefined}
                            onClick={(event) => {
                              event.preventDefault();
                              insertReply(reply.text);
                            }}
                            className="rounded-full bg-white px-3 py-1 text-sm text-gray-900 ring-1 ring-gray-300 hover:bg-gray-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-primary"
                          >
                            <span className="sr-only">{texts.insert} </span>
                            {reply.title}
                            {reply.profile_only ? <span className="text-xs text-gray-600"> ({fill(texts.profileOnly, { name: profile.name })})</span> : null}
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </details>
              </Form>
              {showForm ? (
                <>
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
                              {reclaimField}
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
                            {reclaimField}
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
                </>
              ) : null}
            </section>
          ) : null}
          <details className="group rounded-xl bg-white p-3 ring-1 ring-gray-200" data-testid="inbox-shortcuts">
            <Summary>{texts.shortcutsTitle}</Summary>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-gray-800">
              {texts.shortcuts.map(([keys, what]) => (
                <Fragment key={keys}>
                  <dt>
                    <kbd className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-900 ring-1 ring-gray-300">{keys}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </Fragment>
              ))}
            </dl>
          </details>
        </div>
        <div className="space-y-4">
          <StaffCard title={`${texts.member}: ${member.name}`} testId="inbox-member">
            <p className="text-sm text-gray-800">
              {fill(texts.age, { age: member.age })} · {member.gender} · {[member.city, member.country].filter(Boolean).join(", ")}
            </p>
            <p className="text-sm text-gray-800">
              {fill(texts.credits, { credits: member.credits })} · {member.paying ? texts.paying : texts.free}
            </p>
            <ul className="mt-1 text-sm text-gray-800" data-testid="inbox-member-context">
              <li>{member.spend.length ? fill(texts.spend, { amounts: member.spend.map((row) => `${(row.amount / 100).toFixed(2)} ${row.currency}`).join(", ") }) : texts.noSpend}</li>
              <li>{fill(texts.signup, { date: member.signup_date.slice(0, 10) })}</li>
              <li>{member.last_seen ? fill(texts.lastSeen, { date: utcMinute(member.last_seen) }) : texts.neverSeen}</li>
              <li>{fill(texts.language, { language: member.language })}</li>
            </ul>
            <Photos photos={member.photos} name={member.name} />
            <p className="mt-2 whitespace-pre-line text-sm text-gray-700">{member.about_me}</p>
          </StaffCard>
          <StaffCard title={texts.notes}>
            <Form method="post" className="space-y-2">
              <input type="hidden" name="intent" value="note" />
              <label htmlFor="inbox-notes" className="sr-only">
                {texts.notes}
              </label>
              <textarea id="inbox-notes" name="text" rows={3} maxLength={4000} defaultValue={conversation.note?.body ?? ""} className={staffField} aria-describedby="inbox-notes-help" />
              <p id="inbox-notes-help" className="text-xs text-gray-600">
                {texts.notesHelp}
              </p>
              <Button size="sm" variant="neutral" disabled={busy}>
                {texts.saveNotes}
              </Button>
            </Form>
            {error("note")}
          </StaffCard>
          <StaffCard title={`${texts.profile}: ${profile.name}`}>
            <p className="text-sm text-gray-800">
              {fill(texts.age, { age: profile.age })} · {[profile.city, profile.country].filter(Boolean).join(", ")}
            </p>
            <Photos photos={profile.photos} name={profile.name} />
            <p className="mt-2 whitespace-pre-line text-sm text-gray-700">{profile.about_me}</p>
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

/** Ends the page's claim as it goes away (a beacon survives the page): only the claim that ends at `until`. */
function releaseBeacon(id: number, until: string | null): void {
  const body = new FormData();
  body.set("intent", "release");
  if (until) body.set("until", until);
  navigator.sendBeacon(`/staff/inbox/${id}`, body);
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
  return <StaffErrorBoundary />;
}
