import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ChatPageData } from "~/features/chat/chat.server";

type Open = NonNullable<ChatPageData["open"]>;

/**
 * The pickup lines, each a plain form posting to the chat page. Apart from the pickers' module
 * (chat-extras.tsx): the empty conversation shows them in the page, and their code must not wait for the
 * dialog's.
 */

/** Each choice its own key (the form's key plus its index): sending one choice twice stores it once. */
export const keyFor = (base: string, i: number) => `${base.slice(0, 56)}-${i}`;

export function IcebreakerList({ open, sendKey, lines }: { open: Open; sendKey: string; lines: string[] }) {
  const { t } = useTranslation("chat");
  return (
    <ul className="flex flex-col gap-2" data-testid="icebreaker-list">
      {lines.map((line, i) => (
        <li key={line}>
          <Form method="post">
            <input type="hidden" name="intent" value="send" />
            <input type="hidden" name="to" value={open.profile.id} />
            <input type="hidden" name="key" value={keyFor(sendKey, 100 + i)} />
            <input type="hidden" name="kind" value="icebreaker" />
            <input type="hidden" name="body" value={line} />
            <button type="submit" className="w-full rounded-xl px-3 py-2 text-left text-sm text-gray-800 ring-1 ring-gray-200 hover:bg-rose-50 hover:ring-primary" data-testid="icebreaker" title={t("extras.sendLine")}>
              {line}
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}

