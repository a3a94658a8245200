import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { ChatsQuery, ChatsResponse, DeleteChatRequest, DeleteChatResponse, GiftChoice, GifsResponse, IdempotencyKey, MarkReadResponse, SendMessageResponse, type ChatMessage, type GifResult } from "#contract/chat";
import { chatImageField, gifIdPattern, gifQueryMax } from "#contract/gifts";
import { photoMaxBytes, photoMaxMegabytes } from "#contract/photos";
import { isMultipart } from "../account/photo-upload.server";
import { queryId } from "#contract/input";
import { apiFor } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { splitLocale } from "~/utils/paths";
import { callWithMember, getSettings, getUser, requireUser } from "~/utils/session.server";
import type { BlockedByMemberData } from "~/types";

/*
 * The chat pages (/chats, /chats/{id}, /members/{id}/chat): one api call per page (GET /api/chats.php with
 * the open conversation and the member), and the member's reading of the open conversation as an explicit
 * POST /api/chat-read.php, made only for a real visit (never for a prefetch) and only when it has unread
 * messages; the counts in the badges and the title come from that call's answer.
 */

export type ChatTarget = { conversation: number } | { member: number } | null;

/**
 * Which extras panel the page shows, from its address (links and forms that work without JavaScript):
 * ?gift=1 the gifts, ?icebreakers=1 the pickup lines, ?gif=words a GIF search (empty: the search form), ?image=1
 * the photo form. An empty conversation shows the pickup lines inline as well.
 */
export type ExtrasPanel =
  | { panel: "gift" }
  | { panel: "icebreakers" }
  | { panel: "gif"; q: string; gifs: GifResult[] | null }
  | { panel: "image" };

function panelOf(url: URL): ExtrasPanel | null {
  const p = url.searchParams;
  if (p.get("gift") === "1") return { panel: "gift" };
  if (p.get("icebreakers") === "1") return { panel: "icebreakers" };
  if (p.get("image") === "1") return { panel: "image" };
  const gif = p.get("gif");
  if (gif !== null) return { panel: "gif", q: gif.trim().slice(0, gifQueryMax), gifs: null };
  return null;
}

/** The pickup lines of the locale (locales/{lng}/icebreakers.json), in their order. */
function icebreakerLines(locale: Parameters<typeof fixedT>[0]): string[] {
  const lines = fixedT(locale, "icebreakers")("lines", { returnObjects: true }) as unknown;
  return lines && typeof lines === "object" ? Object.values(lines as Record<string, unknown>).filter((l): l is string => typeof l === "string") : [];
}

/** A browser prefetching a link (Sec-Purpose / Purpose: prefetch) must not read a conversation. */
function isPrefetch(request: Request): boolean {
  return /prefetch/i.test(request.headers.get("Sec-Purpose") ?? request.headers.get("Purpose") ?? "");
}

async function markRead(request: Request, context: AppLoadContext, conversation: number) {
  const result = await apiFor(request, context).post("/api/chat-read.php", MarkReadResponse, { conversation, with_user: 1 });
  return result.ok ? result.data.me : undefined;
}

export async function loadChatPage({ request, context }: Pick<LoaderFunctionArgs, "request" | "context">, target: ChatTarget) {
  const locale = urlLocale(request);
  const url = new URL(request.url);
  const paging = ChatsQuery.safeParse({ page: url.searchParams.get("page") ?? undefined, before: url.searchParams.get("before") ?? undefined });
  const query = { ...(target ?? {}), page: paging.data?.page, before: paging.data?.before };
  let readNow: number | null = null;
  const reads = (answer: ChatsResponse) => {
    const open = answer.open?.conversation;
    if (!open || open.unread_count === 0 || isPrefetch(request)) return Promise.resolve(undefined);
    readNow = open.id;
    return markRead(request, context, open.id);
  };
  const early = callWithMember(request, context, "/api/chats.php", ChatsResponse, query, reads);
  early?.catch(() => undefined);
  const settings = await getSettings(request, context);
  await requireUser(request, context);
  let result = early ? await early : null;
  if (!result) {
    result = await apiFor(request, context).get("/api/chats.php", ChatsResponse, query);
    if (result.ok) await reads(result.data);
  }
  if (!result.ok && result.error.error === "authentication_required") await requireUser(request, context);
  if (!result.ok) {
    // docs/product.md §8: the blocked member's chat page says so (MemberErrorBoundary shows it).
    const blocked: BlockedByMemberData | null = result.error.error === "blocked_by_member" ? { blocked_by_member: { name: String(result.error.params?.name ?? "") } } : null;
    throw data(blocked, { status: result.status === 400 ? 404 : result.status });
  }
  // The member as the badges show it (after the read above, when there was one).
  const user = await getUser(request, context);
  const answer = result.data;
  const t = fixedT(locale, "chat");
  const title = answer.open ? t("conversation.metaTitle", { name: answer.open.profile.name, site: settings.name }) : t("list.metaTitle", { site: settings.name });
  // The open conversation was read by this visit: its row shows that, as the badges do.
  const chats = readNow === null ? answer.chats : answer.chats.map((c) => (c.conversation.id === readNow ? { ...c, num_unread_messages: 0, conversation: { ...c.conversation, unread_count: 0 } } : c));
  let extras = answer.open && answer.open.composer === "open" ? panelOf(url) : null;
  if (extras?.panel === "gif" && extras.q) {
    const found = await apiFor(request, context).get("/api/gifs.php", GifsResponse, { q: extras.q, locale });
    extras = { ...extras, gifs: found.ok ? found.data.gifs : [] };
  }
  const emptyConversation = answer.open !== null && answer.open.composer === "open" && (answer.open.conversation?.messages.length ?? 0) === 0 && !paging.data?.before;
  return {
    extras,
    /** The pickup lines, when the icebreakers panel or an empty conversation shows them. */
    icebreakers: extras?.panel === "icebreakers" || emptyConversation ? icebreakerLines(locale) : null,
    chats,
    page: answer.page,
    hasMore: answer.has_more,
    open: answer.open,
    before: paging.data?.before ?? null,
    me: user ? { profileId: user.profile.id, status: user.status, paid: user.paid_user } : null,
    cdn: settings.cdn_prefix,
    /** A fresh idempotency key for the composer's form: a resent form (double submit, back and resend) stores one message. */
    sendKey: randomUUID(),
    deleting: queryId.safeParse(url.searchParams.get("delete") ?? undefined).data ?? null,
    title,
    description: answer.open ? metaDescription(locale, "conversation", { name: answer.open.profile.name }) : metaDescription(locale, "chats"),
    /** The render time: relative times ("5 min ago") come out the same on the server and in the browser. */
    now: Date.now(),
  };
}
export type ChatPageData = Awaited<ReturnType<typeof loadChatPage>>;

/** What the chat actions answer a fetcher (with JavaScript); without it they redirect. */
export type SendActionData =
  | { ok: true; intent: "send"; message: ChatMessage; credits: number }
  | { ok: false; intent: "send"; message: string; body: string; field?: "body"; link?: { to: string; label: string } };
export type DeleteActionData = { ok: true; intent: "delete" } | { ok: false; intent: "delete"; message: string };

/**
 * POST on a chat page: intent=send (to, body, key) or intent=delete (conversation). Without JavaScript a
 * send redirects to the new message and a delete to /chats; a refused send answers the page with the
 * message and the typed text kept. `js=1` (the fetchers) answers data instead of redirecting.
 */
export async function chatAction({ request, context }: Pick<ActionFunctionArgs, "request" | "context">) {
  const locale = urlLocale(request);
  const url = new URL(request.url);
  if (!(await getUser(request, context))) throw redirect(`/login?redirectTo=${encodeURIComponent(splitLocale(url.pathname).path)}`);
  const api = apiFor(request, context);
  const t = fixedT(locale, ["chat", "common"]);
  if (isMultipart(request)) return sendImage(request, context, locale, url);
  const form = await request.formData();
  const withJs = form.get("js") === "1";

  if (form.get("intent") === "delete") {
    const parsed = DeleteChatRequest.safeParse({ conversation: queryId.safeParse(form.get("conversation")).data });
    if (!parsed.success) throw data(null, { status: 400 });
    const result = await api.delete("/api/chat.php", DeleteChatResponse, undefined, parsed.data);
    if (!result.ok) {
      const failed: DeleteActionData = { ok: false, intent: "delete", message: t("common:errors.internal_error") };
      return data(failed, { status: result.status });
    }
    if (!withJs) throw redirect("/chats");
    return data<DeleteActionData>({ ok: true, intent: "delete" });
  }

  if (form.get("intent") !== "send") throw data(null, { status: 400 });
  const to = queryId.safeParse(form.get("to"));
  const key = IdempotencyKey.safeParse(form.get("key"));
  if (!to.success || !key.success) throw data(null, { status: 400 });
  const rawBody = form.get("body");
  const rawKind = form.get("kind");
  const kind = rawKind === "gift" || rawKind === "gif" || rawKind === "icebreaker" ? rawKind : "text";
  // A gift or GIF form carries an id, not the member's text: nothing of it is kept for the composer.
  const body = typeof rawBody === "string" ? rawBody : "";
  const settings = await getSettings(request, context);
  const refuse = (message: string, status: number, extra: Partial<Extract<SendActionData, { ok: false }>> = {}) =>
    data<SendActionData>({ ok: false, intent: "send", message, body: kind === "text" ? body : "", ...extra }, { status });
  const trimmed = body.trim();
  if (kind === "gift" && !GiftChoice.safeParse(trimmed).success) throw data(null, { status: 400 });
  if (kind === "gif" && !gifIdPattern.test(trimmed)) throw data(null, { status: 400 });
  if (trimmed.length === 0) return refuse(t("composer.empty"), 400, { field: "body" });
  if (trimmed.length > settings.message_length) return refuse(t("composer.tooLong", { count: trimmed.length, max: settings.message_length }), 400, { field: "body" });

  const result = await api.post("/api/message.php", SendMessageResponse, { to: to.data, kind, body: trimmed, key: key.data });
  if (!result.ok) {
    const code = result.error.error;
    if (code === "authentication_required") throw redirect(`/login?redirectTo=${encodeURIComponent(splitLocale(url.pathname).path)}`);
    const message = apiErrorMessage(t, result.error);
    // docs/product.md §8 messages with the way out: buy credits, or become premium.
    if (code === "not_enough_credits") return refuse(message, result.status, { link: { to: "/credits", label: t("composer.buyCredits") } });
    if (code === "premium_required") return refuse(message, result.status, { link: { to: "/premium", label: t("composer.getPremium") } });
    if (code === "validation_failed") return refuse(t("composer.tooLong", { count: trimmed.length, max: settings.message_length }), 400, { field: "body" });
    return refuse(message, result.status);
  }
  const sent = result.data;
  if (!withJs) throw redirect(`/chats/${sent.message.conversation_id}#m${sent.message.id}`);
  return data<SendActionData>({ ok: true, intent: "send", message: sent.message, credits: sent.credits });
}

/**
 * An image message: the chat page's multipart form (to, key, photo), read in memory up to the photo
 * limit and forwarded to POST /api/chat-image.php, which decides whether it is an image. Refusals answer the page
 * with the message in the member's language; a sent image redirects to it (with JavaScript as without).
 */
async function sendImage(request: Request, context: AppLoadContext, locale: ReturnType<typeof urlLocale>, url: URL) {
  const t = fixedT(locale, ["chat", "common"]);
  const refuse = (message: string, status: number) => data<SendActionData>({ ok: false, intent: "send", message, body: "" }, { status });
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: photoMaxBytes, filter: ({ name }) => name === chatImageField || name === "to" || name === "key" || name === "intent" }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return refuse(t("common:errors.file_too_large", { megabytes: photoMaxMegabytes }), 413);
    return refuse(t("extras.imageRequired"), 400);
  }
  const to = queryId.safeParse(form.get("to"));
  const key = IdempotencyKey.safeParse(form.get("key"));
  if (!to.success || !key.success) throw data(null, { status: 400 });
  const file = form.get(chatImageField);
  if (!(file instanceof File) || file.size === 0) return refuse(t("extras.imageRequired"), 400);
  const body = new FormData();
  body.append("to", String(to.data));
  body.append("key", key.data);
  body.append(chatImageField, file, file.name || "photo");
  const result = await apiFor(request, context).post("/api/chat-image.php", SendMessageResponse, body);
  if (!result.ok) {
    const code = result.error.error;
    if (code === "authentication_required") throw redirect(`/login?redirectTo=${encodeURIComponent(splitLocale(url.pathname).path)}`);
    const message = apiErrorMessage(t, result.error);
    if (code === "not_enough_credits") return data<SendActionData>({ ok: false, intent: "send", message, body: "", link: { to: "/credits", label: t("composer.buyCredits") } }, { status: result.status });
    return refuse(message, result.status);
  }
  throw redirect(`/chats/${result.data.message.conversation_id}#m${result.data.message.id}`);
}
