import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { typingAtom } from "./live-state";

/** "{name} is typing…" while the other member's last typing signal is under 5 s old (LiveEvents clears it). */
export function TypingNotice({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation("chat");
  const typing = useAtomValue(typingAtom)[conversationId];
  if (!typing) return null;
  return (
    <p className="self-start px-1 text-sm italic text-gray-500" role="status" data-testid="chat-typing">
      {t("conversation.typing", { name: typing.name })}
    </p>
  );
}
