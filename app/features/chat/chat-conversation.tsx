import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { typingSendEverySeconds } from "#contract/live";
import type { ChatMessage } from "#contract/chat";
import type { ChatPageData, SendActionData } from "~/features/chat/chat.server";
import { ChatRefusal } from "./chat-refusal";
import { Avatar, CreditsBadge, RelativeTime, type ConversationProps, type Open } from "./chat-page";
import { useHydrated } from "~/utils/hydrated";
import { afterHydration, whenShown } from "~/utils/when-shown";
import { watchSession } from "~/features/account/auth-lost";
import { Button } from "~/components/ui/button";
import { numberFormat } from "~/utils/intl";

/*
 * The open conversation of the chat pages (/chats/{id}, /members/{id}/chat): messages, typing, the composer
 * and the extras. The conversation routes pass ConversationView to ChatPage.
 */

// Shown to an unconfirmed member only.
// Live only (the stream starts after hydration): its code, and jotai's, load after hydration.
const TypingNotice = afterHydration(() => import("./typing-notice").then((m) => m.TypingNotice));

const ResendActivationForm = whenShown("ResendActivationForm", () => import("../signup/activation-reminder").then((m) => m.ResendActivationForm));
// The gift, pickup line, GIF and photo pickers load when a page shows one.
const ExtrasPanelView = whenShown("ExtrasPanelView", () => import("./chat-extras").then((m) => m.ExtrasPanelView));
const IcebreakerList = whenShown("IcebreakerList", () => import("./chat-icebreakers").then((m) => m.IcebreakerList));

// Gift, GIF and image messages, and messages sent with JavaScript that are on their way: their code loads when a page shows one.
const MediaBubble = whenShown("MediaBubble", () => import("./chat-bubbles").then((m) => m.MediaBubble));
const PendingBubble = whenShown("PendingBubble", () => import("./chat-bubbles").then((m) => m.PendingBubble));

export type Pending = { key: string; body: string };

export function ConversationView({ open, page }: ConversationProps) {
  const { t } = useTranslation("chat");
  const hydrated = useHydrated();
  const { profile, conversation } = open;
  const messages = conversation?.messages ?? [];
  const [pending, setPending] = useState<Pending[]>([]);
  const action = useActionData<SendActionData>();
  const refused = action && !action.ok && action.intent === "send" ? action : null;
  // The composer's text lives here: a failed message's "Edit" puts its text back.
  const [text, setText] = useState(refused?.body ?? "");
  // The same array on every render, so the pickup lines' boundary (whenShown) is left alone while the member types.
  const icebreakers = useMemo(() => page.icebreakers?.slice(0, 4) ?? [], [page.icebreakers]);
  const bottom = useRef<HTMLDivElement>(null);
  const mine = (m: ChatMessage) => m.sender === page.me?.profileId;
  const lastMine = [...messages].reverse().find(mine);

  useEffect(() => {
    if (!page.before) bottom.current?.scrollIntoView({ block: "end" });
  }, [messages.length, pending.length, page.before]);

  return (
    <>
      <header className="flex items-center gap-3 border-b border-gray-200 bg-white px-4 py-3">
        <Link to="/chats" className="text-gray-600 hover:text-gray-900 md:hidden" aria-label={t("conversation.back")} data-testid="chat-back">
          ←
        </Link>
        <Link to={`/members/${profile.id}`} className="flex min-w-0 flex-1 items-center gap-3 text-gray-900 hover:text-gray-900" aria-label={t("conversation.profile", { name: profile.name })}>
          <Avatar name={profile.name} src={profile.thumbnail ? page.cdn + profile.thumbnail : null} size={40} />
          <h1 className="truncate text-lg font-semibold" data-testid="chat-name">
            {profile.name}
          </h1>
        </Link>
        <span className="md:hidden">
          <CreditsBadge />
        </span>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4" data-testid="chat-messages">
        <div className="mx-auto flex max-w-[800px] flex-col gap-2">
          {open.has_earlier && messages[0] ? (
            <Link to={`?before=${messages[0].id}`} className="self-center text-sm" data-testid="chat-earlier">
              {t("conversation.earlier")}
            </Link>
          ) : null}
          {messages.length === 0 && pending.length === 0 ? (
            <div className="my-6 flex flex-col items-center gap-3 self-center text-center">
              <p className="text-gray-500" data-testid="chat-start">
                {t("conversation.start", { name: profile.name })}
              </p>
              {page.icebreakers && page.icebreakers.length > 0 && page.extras?.panel !== "icebreakers" ? (
                <div className="w-full max-w-md text-left" data-testid="chat-start-icebreakers">
                  <p className="mb-2 text-sm font-medium text-gray-700">
                    {t("extras.icebreakersTitle", { name: profile.name })} · {t("composer.cost", { count: open.message_credits })}
                  </p>
                  <IcebreakerList open={open} sendKey={page.sendKey} lines={icebreakers} />
                  <Link to="?icebreakers=1" className="mt-2 inline-block text-sm font-semibold">
                    {t("extras.moreLines")}
                  </Link>
                </div>
              ) : null}
            </div>
          ) : null}
          <ol className="flex flex-col gap-2">
            {messages.map((message) => (
              <Bubble key={message.id} message={message} mine={mine(message)} status={message === lastMine ? ((conversation?.other_read_through ?? 0) >= message.id ? "read" : "sent") : null} />
            ))}
            {pending.map((p) => (
              <PendingBubble
                key={p.key}
                pending={p}
                to={profile.id}
                onDone={() => setPending((list) => list.filter((x) => x.key !== p.key))}
                onEdit={() => {
                  setPending((list) => list.filter((x) => x.key !== p.key));
                  setText(p.body);
                }}
              />
            ))}
          </ol>
          {page.before ? (
            <Link to={`${conversation ? `/chats/${conversation.id}` : `/members/${profile.id}/chat`}#latest`} className="self-center text-sm">
              {t("conversation.latest")}
            </Link>
          ) : null}
          {conversation ? <TypingNotice conversationId={conversation.id} /> : null}
          <div id="latest" ref={bottom} />
        </div>
      </div>
      <Composer open={open} page={page} hydrated={hydrated} refused={refused} text={text} setText={setText} onSend={(p) => setPending((list) => [...list, p])} />
      {page.extras ? <ExtrasPanelView open={open} page={page} extras={page.extras} closeTo={conversation ? `/chats/${conversation.id}` : `/members/${profile.id}/chat`} /> : null}
    </>
  );
}

function Bubble({ message, mine, status }: { message: ChatMessage; mine: boolean; status: "sent" | "read" | null }) {
  const { t } = useTranslation("chat");
  return (
    <li id={`m${message.id}`} className={`flex flex-col ${mine ? "items-end" : "items-start"}`} data-testid="chat-message" data-mine={mine ? "true" : "false"}>
      {message.media ? (
        <MediaBubble message={message} media={message.media} mine={mine} />
      ) : (
        <p className={`max-w-[85%] whitespace-pre-line break-words rounded-2xl px-4 py-2 ${mine ? "rounded-br-sm bg-primary text-white" : "rounded-bl-sm bg-white text-gray-900 ring-1 ring-gray-100"}`} data-kind={message.kind}>
          {message.body}
        </p>
      )}
      {mine && message.moderation ? (
        // Held for contact details, or rejected (docs/staff.md): only the sender sees the message, and why.
        <p className="mt-1 max-w-[85%] rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900 ring-1 ring-amber-200" data-testid="chat-moderation-note" data-moderation={message.moderation}>
          {t(`conversation.${message.moderation}`)}
        </p>
      ) : null}
      <span className="mt-0.5 flex gap-2 px-1 text-xs text-gray-500">
        <RelativeTime iso={message.created_at} />
        {status ? <span data-testid="chat-status">{t(`conversation.${status}`)}</span> : null}
        {mine ? null : (
          <Link to={`/members/${message.sender}/report?message=${message.id}`} className="text-gray-500 underline hover:text-gray-800" data-testid="report-message">
            {t("conversation.report")}
          </Link>
        )}
      </span>
    </li>
  );
}

const extraLink = "rounded-full bg-gray-100 px-3 py-1 text-xs font-semibold text-gray-700 hover:bg-rose-50 hover:text-primary";

type ComposerProps = {
  open: Open;
  page: ChatPageData;
  hydrated: boolean;
  refused: Extract<SendActionData, { ok: false }> | null;
  text: string;
  setText: (text: string) => void;
  onSend: (p: Pending) => void;
};

/** docs/product.md §3 minimum_message_costs: an amount in the currency's major unit, as the page's language writes money. */
function money(cost: { costs: number; currency: string }, language: string): string {
  return numberFormat(language, { style: "currency", currency: cost.currency }).format(cost.costs);
}

function Composer({ open, page, hydrated, refused, text, setText, onSend }: ComposerProps) {
  const { t, i18n } = useTranslation("chat");
  const [key, setKey] = useState(page.sendKey);
  const { profile } = open;
  const lastTyping = useRef(0);
  // "is typing" at most every 3 s while typing; a lost signal only means a missing hint.
  const signalTyping = (conversation: number) => {
    const now = Date.now();
    if (now - lastTyping.current < typingSendEverySeconds * 1000) return;
    lastTyping.current = now;
    void fetch("/api/typing.php", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ conversation }) })
      .then(watchSession)
      .catch(() => undefined);
  };

  if (open.composer !== "open") {
    return (
      <p className="border-t border-gray-200 bg-amber-50 px-4 py-3 text-center text-sm text-amber-900" role="status" data-testid="chat-composer-closed">
        {t(open.composer === "recipient_unconfirmed" ? "composer.unconfirmed" : "composer.unavailable", { name: profile.name })}
      </p>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    const body = text.trim();
    if (body.length === 0 || body.length > open.message_length) return;
    onSend({ key, body });
    setText("");
    setKey(crypto.randomUUID());
  }

  const length = text.trim().length;
  const tooLong = length > open.message_length;
  return (
    <div className="border-t border-gray-200 bg-white px-4 py-3">
      <div className="mx-auto max-w-[800px]">
        {page.me?.status === "not_confirmed" ? (
          <div className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="chat-confirm-yours">
            {t("composer.confirmYours", { name: profile.name })}
            <ResendActivationForm />
          </div>
        ) : null}
        {refused ? <ChatRefusal refused={refused} className="mb-2 text-sm text-danger" testId="chat-error" /> : null}
        <Form method="post" onSubmit={submit} className="flex items-end gap-2" data-testid="chat-composer">
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="to" value={profile.id} />
          <input type="hidden" name="key" value={key} />
          <label className="sr-only" htmlFor="chat-body">
            {t("composer.label", { name: profile.name })}
          </label>
          <textarea
            id="chat-body"
            name="body"
            rows={2}
            required
            maxLength={open.message_length}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              if (open.conversation) signalTyping(open.conversation.id);
            }}
            placeholder={t("composer.placeholder")}
            aria-invalid={refused?.field === "body" || tooLong ? true : undefined}
            className="min-h-[2.75rem] flex-1 resize-y rounded-xl border border-gray-300 px-3 py-2 focus:border-primary focus:outline-none"
          />
          <Button disabled={hydrated && (length === 0 || tooLong)}>
            {t("composer.send")}
          </Button>
        </Form>
        <nav className="mt-2 flex flex-wrap gap-2" aria-label={t("extras.label")} data-testid="chat-extras">
          <Link to="?icebreakers=1" className={extraLink} data-testid="open-icebreakers">
            {t("extras.icebreakers")}
          </Link>
          <Link to="?gif=" className={extraLink} data-testid="open-gif">
            {t("extras.gif")}
          </Link>
          <Link to="?gift=1" className={extraLink} data-testid="open-gift">
            {t("extras.gift")}
          </Link>
          <Link to="?image=1" className={extraLink} data-testid="open-image">
            {t("extras.image")}
          </Link>
        </nav>
        <p className="mt-1 flex flex-wrap justify-between gap-2 text-xs text-gray-500" data-testid="chat-cost">
          <span>
            {open.message_credits > 0 ? t("composer.cost", { count: open.message_credits }) : t("composer.free")}
            {open.message_credits > 0 && open.minimum_message_cost ? ` (${t("composer.minimum", { amount: money(open.minimum_message_cost, i18n.language) })})` : null} · {t("composer.balance", { count: open.credits })}
            {open.credits < open.message_credits ? (
              <>
                {" · "}
                <Link to="/credits" className="font-semibold">
                  {t("composer.buyCredits")}
                </Link>
              </>
            ) : null}
          </span>
          {/*
            Without JavaScript the limit, with it the live counter. Both texts sit in the same grid cell, the other one
            invisible, so the line is as wide before hydration as after: the cost line wraps the same and the composer
            does not move when the page hydrates (it made a layout shift of 0.083 on phones).
          */}
          <span className="grid justify-items-end">
            <span className={`col-start-1 row-start-1 ${hydrated ? "" : "invisible"} ${tooLong ? "text-danger" : ""}`} aria-hidden={hydrated ? undefined : true} data-testid={hydrated ? "chat-counter" : undefined}>
              {t("composer.counter", { count: length, max: open.message_length })}
            </span>
            <span className={`col-start-1 row-start-1 ${hydrated ? "invisible" : ""}`} aria-hidden={hydrated ? true : undefined} data-testid={hydrated ? undefined : "chat-counter"}>
              {t("composer.maxLength", { max: open.message_length })}
            </span>
          </span>
        </p>
      </div>
    </div>
  );
}

