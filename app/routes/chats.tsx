import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { chatAction, loadChatPage } from "~/features/chat/chat.server";
import { ChatPage } from "~/features/chat/chat-page";
import { pageMeta } from "~/utils/page-title";

/** docs/product.md §2 /chats: the member's conversations (chat layout); deleting one posts here. */
export const handle = { layout: "chat" };

export const loader = (args: LoaderFunctionArgs) => loadChatPage(args, null);
export const action = (args: ActionFunctionArgs) => chatAction(args);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function ChatsPage() {
  return <ChatPage />;
}
