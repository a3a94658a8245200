import { describe, expect, it } from "vitest";
import { typingAfterMessage, type TypingByConversation } from "~/features/chat/live-state";

describe("typingAfterMessage", () => {
  const all: TypingByConversation = { 7: { fromId: 40, name: "Fern", until: 1 }, 8: { fromId: 41, name: "Kim", until: 2 } };

  it("ends the typing notice of the conversation whose typing member sent the message", () => {
    expect(typingAfterMessage(all, { conversation_id: 7, from: { id: 40 } })).toEqual({ 8: all[8] });
  });

  it("keeps it for a message from someone else (the member's own, from another tab) or another conversation", () => {
    expect(typingAfterMessage(all, { conversation_id: 7, from: { id: 99 } })).toBe(all);
    expect(typingAfterMessage(all, { conversation_id: 9, from: { id: 40 } })).toBe(all);
  });
});
