import { useEffect, useRef, useState, type ComponentType, type FormEvent } from "react";
import { Form, Link, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ChatListEntry, ChatMessage } from "#contract/chat";
import type { ChatPageData, DeleteActionData } from "~/features/chat/chat.server";
import { countBadgeText, creditsBadgeTone } from "~/components/layout/badges";
import { useHydrated } from "~/utils/hydrated";
import { useLocale, useRootData } from "~/utils/root-data";
import { Button, ButtonLink } from "~/components/ui/button";
import { dateTimeFormat, relativeTimeFormat } from "~/utils/intl";

export type Open = NonNullable<ChatPageData["open"]>;
/** What the conversation routes pass as the conversation (chat-conversation.tsx): /chats has none, so it loads none. */
export type ConversationProps = { open: Open; page: ChatPageData };

/**
 * The chat pages (docs/product.md §2 chat layout: full screen): the conversations list beside the open conversation on
 * wide screens (300-400 px wide); on phones the list alone at /chats and the conversation alone at
 * /chats/{id} and /members/{id}/chat. Every action is a form that works without JavaScript. The conversation's
 * code is the conversation routes' (chat-conversation.tsx): the list page does not load it.
 */
export function ChatPage({ Conversation }: { Conversation?: ComponentType<ConversationProps> }) {
  const page = useLoaderData<ChatPageData>();
  const { open } = page;
  return (
    <div className="flex min-h-0 flex-1 bg-gray-50" data-testid="chat-page">
      <aside className={`${open ? "hidden md:flex" : "flex"} w-full min-w-0 flex-col border-r border-gray-200 bg-white md:w-80 md:shrink-0 lg:w-96`}>
        <ListHeader conversationOpen={Boolean(open)} />
        <ChatList page={page} />
      </aside>
      <section className={`${open ? "flex" : "hidden md:flex"} min-w-0 flex-1 flex-col`}>
        {open && Conversation ? <Conversation key={`${open.profile.id}-${page.before ?? ""}`} open={open} page={page} /> : <ChooseHint />}
      </section>
    </div>
  );
}

/** The list's title is the page's h1 on /chats; beside an open conversation (whose name is the h1) it is an h2. */
function ListHeader({ conversationOpen }: { conversationOpen: boolean }) {
  const { t } = useTranslation("chat");
  const root = useRootData();
  const unread = countBadgeText(root?.user?.unreadMessages ?? 0);
  const Heading = conversationOpen ? "h2" : "h1";
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 px-4 py-3">
      <Link to="/members" className="text-gray-600 hover:text-gray-900" aria-label={t("conversation.toMembers")} data-testid="chat-home">
        ←
      </Link>
      <Heading className="flex flex-1 items-center gap-2 text-lg font-semibold text-gray-900">
        {t("list.title")}
        {unread ? (
          <span className="min-w-5 rounded-full bg-unread px-1.5 py-0.5 text-center text-xs font-semibold text-white" data-testid="chat-unread-total" aria-label={t("list.unread", { count: root?.user?.unreadMessages ?? 0 })}>
            {unread}
          </span>
        ) : null}
      </Heading>
      <CreditsBadge />
    </header>
  );
}

/** docs/product.md §2: the credits badge at 10 credits or fewer (warning above 0, danger at 0), a link to buy more. */
export function CreditsBadge() {
  const { t } = useTranslation();
  const user = useRootData()?.user;
  if (!user) return null;
  const tone = creditsBadgeTone(user.credits);
  const colour = tone === "danger" ? "bg-danger text-white" : tone === "warning" ? "bg-warning text-gray-900" : "bg-gray-100 text-gray-800";
  return (
    <Link to={user.paidUser ? "/credits" : "/premium"} className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${colour}`} data-testid="chat-credits" data-tone={tone ?? "none"} aria-label={t("nav.creditsLeft", { count: user.credits })}>
      {user.credits}
    </Link>
  );
}

function ChooseHint() {
  const { t } = useTranslation("chat");
  return <p className="m-auto max-w-xs p-6 text-center text-gray-500">{t("list.choose")}</p>;
}

function ChatList({ page }: { page: ChatPageData }) {
  const { t } = useTranslation("chat");
  const revalidator = useRevalidator();
  // Deleted with JavaScript: gone at once, whatever the server says later (docs/product.md §4 Removing a chat).
  const [removed, setRemoved] = useState<number[]>([]);
  // A removed row stays mounted (hidden) until its deletion is answered: a failure brings it back.
  const chats = page.chats;
  const empty = chats.every((c) => removed.includes(c.conversation.id)) && page.page === 1;
  return (
    <nav aria-label={t("list.title")} className="flex min-h-0 flex-1 flex-col overflow-y-auto">
      {empty ? (
        <div className="m-auto max-w-xs p-6 text-center" data-testid="chats-empty">
          <p className="font-medium text-gray-800">{t("list.empty")}</p>
          <p className="mt-1 text-sm text-gray-500">{t("list.emptyHint")}</p>
          <ButtonLink to="/members" size="sm" className="mt-4">
            {t("list.emptyLink")}
          </ButtonLink>
        </div>
      ) : null}
      <ul data-testid="chat-list">
        {chats.map((chat) => (
          <ChatRow
            key={chat.conversation.id}
            chat={chat}
            page={page}
            removed={removed.includes(chat.conversation.id)}
            onRemoved={(id) => setRemoved((list) => [...list, id])}
            onRestore={(id) => {
              setRemoved((list) => list.filter((x) => x !== id));
              revalidator.revalidate();
            }}
          />
        ))}
      </ul>
      <div className={`flex justify-between px-4 py-3 text-sm ${empty ? "hidden" : ""}`}>
        {page.page > 1 ? <Link to={`/chats?page=${page.page - 1}`}>{t("list.newer")}</Link> : <span />}
        {page.hasMore ? <Link to={`/chats?page=${page.page + 1}`}>{t("list.more")}</Link> : null}
      </div>
    </nav>
  );
}

type ChatRowProps = { chat: ChatListEntry; page: ChatPageData; removed: boolean; onRemoved: (id: number) => void; onRestore: (id: number) => void };

function ChatRow({ chat, page, removed, onRemoved, onRestore }: ChatRowProps) {
  const { t } = useTranslation("chat");
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const fetcher = useFetcher<DeleteActionData>({ key: `delete-chat-${chat.conversation.id}` });
  const { conversation, profile } = chat;
  const last = conversation.messages[conversation.messages.length - 1];
  const active = page.open?.conversation?.id === conversation.id;
  const askToDelete = confirming || page.deleting === conversation.id;

  const handled = useRef<DeleteActionData | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (!fetcher.data.ok) {
      // docs/product.md §8: a failed deletion shows an alert and the list reloads.
      window.alert(fetcher.data.message);
      onRestore(conversation.id);
    }
  }, [fetcher.state, fetcher.data, conversation.id, onRestore]);

  function remove(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    onRemoved(conversation.id);
    fetcher.submit({ intent: "delete", conversation: String(conversation.id), js: "1" }, { method: "post", action: "/chats" });
  }

  return (
    <li
      hidden={removed}
      // On the active row's pink the list's grey text is gray-600 (6.30:1; gray-500 gives 4.03, app/tailwind.css).
      className={`border-b border-gray-100 ${active ? "bg-primary-light [&_.text-gray-500]:text-gray-600" : ""}`} data-testid="chat-row" data-conversation={conversation.id} data-unread={chat.num_unread_messages}>
      <div className="flex items-center gap-3 px-4 py-3">
        <Link to={`/chats/${conversation.id}#latest`} className="flex min-w-0 flex-1 items-center gap-3 text-gray-900 hover:text-gray-900" aria-current={active ? "page" : undefined}>
          <Avatar name={profile.name} src={profile.thumbnail ? page.cdn + profile.thumbnail : null} size={48} />
          <span className="min-w-0 flex-1">
            <span className="flex items-baseline justify-between gap-2">
              <span className={`truncate ${chat.num_unread_messages > 0 ? "font-bold" : "font-semibold"}`}>{profile.name}</span>
              {last ? <RelativeTime iso={last.created_at} /> : null}
            </span>
            <span className="flex items-center justify-between gap-2">
              <span className={`truncate text-sm ${chat.num_unread_messages > 0 ? "text-gray-900" : "text-gray-500"}`} data-testid="chat-preview">
                {last ? (last.sender === page.me?.profileId ? t("list.you", { text: preview(last, t) }) : preview(last, t)) : ""}
              </span>
              <UnreadBadge count={chat.num_unread_messages} />
            </span>
          </span>
        </Link>
        {askToDelete ? null : (
          <Link
            to={`/chats?delete=${conversation.id}`}
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              setConfirming(true);
            }}
            className="shrink-0 rounded-md px-2 py-1 text-xs text-gray-500 hover:bg-gray-100 hover:text-danger"
            aria-label={t("list.deleteLabel", { name: profile.name })}
            data-testid="chat-delete"
          >
            {t("list.delete")}
          </Link>
        )}
      </div>
      {askToDelete ? (
        <Form method="post" action="/chats" onSubmit={remove} className="mx-4 mb-3 rounded-lg bg-red-50 p-3 text-sm ring-1 ring-red-200" data-testid="chat-delete-confirm">
          <p className="text-gray-800">{t("list.confirmDelete", { name: profile.name })}</p>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="conversation" value={conversation.id} />
          <div className="mt-2 flex gap-2">
            <Button variant="danger" size="sm">
              {t("list.confirm")}
            </Button>
            <Link
              to={page.open?.conversation ? `/chats/${page.open.conversation.id}` : "/chats"}
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                setConfirming(false);
              }}
              className="rounded-full px-4 py-1 text-gray-700 ring-1 ring-gray-300"
            >
              {t("list.cancel")}
            </Link>
          </div>
        </Form>
      ) : null}
    </li>
  );
}

/** What the list shows of a message. */
function preview(message: ChatMessage, t: (key: string) => string): string {
  if (message.media) return t(`extras.preview.${message.kind}`);
  return message.body.replace(/\s+/g, " ").slice(0, 80);
}

function UnreadBadge({ count }: { count: number }) {
  const { t } = useTranslation("chat");
  const text = countBadgeText(count);
  if (!text) return null;
  return (
    <span className="min-w-5 shrink-0 rounded-full bg-unread px-1.5 py-0.5 text-center text-xs font-semibold text-white" data-testid="chat-unread" aria-label={t("list.unread", { count })}>
      {text}
    </span>
  );
}

export function Avatar({ name, src, size }: { name: string; src: string | null; size: number }) {
  const style = { width: size, height: size };
  if (src) return <img src={src} alt="" width={size} height={size} style={style} className="shrink-0 rounded-full bg-gray-200 object-cover" />;
  return (
    <span style={style} className="flex shrink-0 items-center justify-center rounded-full bg-gray-200 font-semibold text-gray-500" aria-hidden="true">
      {name.slice(0, 1)}
    </span>
  );
}

/** "5 min ago", "yesterday", else the date: relative to the page's render time, so server and browser agree. */
export function RelativeTime({ iso }: { iso: string }) {
  const { t } = useTranslation("chat");
  const locale = useLocale();
  const now = useLoaderData<ChatPageData>().now;
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  let text: string;
  if (seconds < 60) text = t("time.now");
  else if (seconds < 3600) text = relativeTimeFormat(locale, { numeric: "auto" }).format(-Math.floor(seconds / 60), "minute");
  else if (seconds < 86400) text = relativeTimeFormat(locale, { numeric: "auto" }).format(-Math.floor(seconds / 3600), "hour");
  else if (seconds < 7 * 86400) text = relativeTimeFormat(locale, { numeric: "auto" }).format(-Math.floor(seconds / 86400), "day");
  else text = dateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(iso));
  return (
    <time dateTime={iso} className="shrink-0 text-xs text-gray-500">
      {text}
    </time>
  );
}

