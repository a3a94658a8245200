import { useEffect, useRef } from "react";
import { Link, useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ChatMessage } from "#contract/chat";
import type { SendActionData } from "~/features/chat/chat.server";
import type { Pending } from "./chat-conversation";

/*
 * Message bubbles only some conversations show (chat-conversation.tsx loads them when shown): media messages
 * (gifts, GIFs, images) and the messages sent with JavaScript while they are on their way.
 */

/** A gift (its picture and name), a GIF, or an image (its thumbnail, a link to the full size). */
export function MediaBubble({ message, media, mine }: { message: ChatMessage; media: NonNullable<ChatMessage["media"]>; mine: boolean }) {
  const { t } = useTranslation("chat");
  const frame = `max-w-[85%] overflow-hidden rounded-2xl ${mine ? "rounded-br-sm" : "rounded-bl-sm"} bg-white ring-1 ring-gray-100`;
  if (message.kind === "gift") {
    const name = t(`gifts.${media.ref}`);
    return (
      <figure className={`${frame} flex flex-col items-center px-4 py-3`} data-kind="gift" data-gift={media.ref}>
        <img src={media.url} width={media.width} height={media.height} alt={t("extras.giftAlt", { gift: name })} loading="lazy" />
        <figcaption className="mt-1 text-sm font-medium text-gray-800">{mine ? t("extras.giftSent", { gift: name }) : t("extras.giftReceived", { gift: name })}</figcaption>
      </figure>
    );
  }
  const width = Math.min(media.width, 240);
  const height = Math.round((width * media.height) / Math.max(media.width, 1));
  if (message.kind === "gif") {
    return (
      <div className={frame} data-kind="gif" data-gif={media.ref}>
        <img src={media.url} width={width} height={height} alt={t("extras.gifAlt")} loading="lazy" />
      </div>
    );
  }
  return (
    <a href={media.url} target="_blank" rel="noopener" className={`${frame} block`} data-kind="image" aria-label={t("extras.openFull")}>
      <img src={media.thumb_url} width={width} height={height} alt={t("extras.imageAlt")} loading="lazy" />
    </a>
  );
}

/** A message sent with JavaScript: shown at once as sending, then gone into the list as sent, or failed with a retry; its text is never lost. */
export function PendingBubble({ pending, to, onDone, onEdit }: { pending: Pending; to: number; onDone: () => void; onEdit: () => void }) {
  const { t } = useTranslation("chat");
  const fetcher = useFetcher<SendActionData>({ key: `send-${pending.key}` });
  const submitted = useRef(false);
  const send = () => fetcher.submit({ intent: "send", to: String(to), body: pending.body, key: pending.key, js: "1" }, { method: "post" });

  useEffect(() => {
    if (submitted.current) return;
    submitted.current = true;
    send();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sent once when shown; a retry sends again with the same key
  }, []);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);

  const failed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  return (
    <li className="flex flex-col items-end" data-testid="chat-pending" data-state={failed ? "failed" : "sending"}>
      <p className={`max-w-[85%] whitespace-pre-line break-words rounded-2xl rounded-br-sm px-4 py-2 text-white ${failed ? "bg-gray-400" : "bg-primary/70"}`}>{pending.body}</p>
      {failed ? (
        <span className="mt-1 flex max-w-[85%] flex-wrap items-center justify-end gap-2 text-right text-xs" role="alert">
          <span className="text-danger">
            {t("conversation.failed")} {failed.message}
          </span>
          {failed.link ? (
            <Link to={failed.link.to} className="font-semibold">
              {failed.link.label}
            </Link>
          ) : null}
          <button type="button" onClick={send} className="font-semibold text-primary" data-testid="chat-retry">
            {t("conversation.retry")}
          </button>
          <button type="button" onClick={onEdit} className="text-gray-600">
            {t("conversation.edit")}
          </button>
        </span>
      ) : (
        <span className="mt-0.5 px-1 text-xs text-gray-500">{t("conversation.sending")}</span>
      )}
    </li>
  );
}
