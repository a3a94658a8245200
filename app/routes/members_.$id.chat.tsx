import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { queryId } from "#contract/input";
import { chatAction, loadChatPage } from "~/features/chat/chat.server";
import { ChatPage } from "~/features/chat/chat-page";
import { ConversationView } from "~/features/chat/chat-conversation";
import { whenShown } from "~/utils/when-shown";
import { pageMeta } from "~/utils/page-title";

/**
 * docs/product.md §2 /members/{id}/chat: the conversation with a member, by member (chat layout). No conversation is
 * created until the first message; the blocked member gets the message of docs/product.md §8 (MemberErrorBoundary).
 */
export const handle = { layout: "chat" };

export function loader(args: LoaderFunctionArgs) {
  const id = queryId.safeParse(args.params.id);
  if (!id.success) throw data(null, { status: 404 });
  return loadChatPage(args, { member: id.data });
}

export const action = (args: ActionFunctionArgs) => chatAction(args);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function ConversationPage() {
  return <ChatPage Conversation={ConversationView} />;
}
// The blocked member's message (else the general error page); its code loads when shown.
export const ErrorBoundary = whenShown("MemberErrorBoundary", () => import("~/features/members/member-error").then((m) => m.MemberErrorBoundary));
