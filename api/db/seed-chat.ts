import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "./client";
import { conversationMembers, conversations, messages, profiles } from "./schema";
import { pairOf } from "../domain/chat";

/*
 * Demo conversations (chat issue item 8): days of history among demo members, and for the two demo
 * accounts unread messages in at least two conversations. History is demo data, so it was sent free
 * (credits 0): no member's ledger needs an entry for it.
 */

const lines = [
  "Hi! I liked your profile, how is your week going?",
  "Hey, thanks for writing! Pretty good, busy at work. Yours?",
  "Same here. Looking forward to the weekend though.",
  "Any plans? I was thinking of a walk along the canals if the weather holds.",
  "That sounds lovely. I might go to a concert on Saturday.",
  "Oh nice, what kind of music?",
  "Mostly jazz, sometimes something louder :)",
  "Ha, I can do both. Do you have a favourite place for coffee?",
  "There's a small place near the station with the best cappuccino in town.",
  "You have to show me some time!",
  "Good morning! Did you sleep well?",
  "I just saw your photos again, you have a great smile.",
  "What made you sign up here?",
  "Honestly? Curiosity. And you?",
  "Tell me something about yourself nobody would guess.",
];

type Talk = { a: number; b: number; count: number; unreadForB: number; daysAgo: number };

async function talk(tx: Db, siteId: number, now: Date, t: Talk): Promise<void> {
  const pair = pairOf(t.a, t.b);
  const [conversation] = await tx.insert(conversations).values({ siteId, lowProfileId: pair.low, highProfileId: pair.high, startedBy: t.a }).returning({ id: conversations.id });
  if (!conversation) throw new Error("conversation insert returned nothing");
  const start = now.getTime() - t.daysAgo * 86_400_000;
  const step = Math.max(1, Math.floor((t.daysAgo * 86_400_000 - 3_600_000) / t.count));
  let lastId = 0;
  let lastReadByA = 0;
  let lastReadByB = 0;
  for (let i = 0; i < t.count; i++) {
    // Alternating, except that the last `unreadForB` messages all come from a, unread by b.
    const fromA = i >= t.count - t.unreadForB || i % 2 === 0;
    const [message] = await tx
      .insert(messages)
      .values({ conversationId: conversation.id, senderProfileId: fromA ? t.a : t.b, body: lines[(i + t.a) % lines.length] ?? "Hi!", credits: 0, createdAt: new Date(start + i * step) })
      .returning({ id: messages.id });
    if (!message) throw new Error("message insert returned nothing");
    lastId = message.id;
    if (fromA) lastReadByA = message.id;
    else lastReadByB = message.id;
    if (i < t.count - t.unreadForB) lastReadByB = message.id;
  }
  await tx.update(conversations).set({ lastMessageId: lastId }).where(eq(conversations.id, conversation.id));
  await tx.insert(conversationMembers).values([
    { conversationId: conversation.id, profileId: t.a, otherProfileId: t.b, lastMessageId: lastId, lastReadMessageId: Math.max(lastReadByA, lastReadByB) },
    { conversationId: conversation.id, profileId: t.b, otherProfileId: t.a, lastMessageId: lastId, lastReadMessageId: lastReadByB, unreadCount: t.unreadForB },
  ]);
}

/** Conversations for the demo accounts (`demoProfiles`, on the default site) and among other demo members of every site. */
export async function seedConversations(tx: Db, now: Date, defaultSiteId: number, demoProfiles: { id: number; gender: "male" | "female" }[]): Promise<void> {
  for (const demo of demoProfiles) {
    const others = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.siteId, defaultSiteId), ne(profiles.gender, demo.gender), eq(profiles.status, "active"), eq(profiles.invisible, false)))
      .orderBy(asc(profiles.id))
      .limit(4);
    const [first, second, third, fourth] = others.map((o) => o.id);
    // Two conversations others started with unread messages, one the demo member started (read), one older.
    if (first) await talk(tx, defaultSiteId, now, { a: first, b: demo.id, count: 7, unreadForB: 2, daysAgo: 3 });
    if (second) await talk(tx, defaultSiteId, now, { a: second, b: demo.id, count: 4, unreadForB: 1, daysAgo: 1 });
    if (third) await talk(tx, defaultSiteId, now, { a: demo.id, b: third, count: 9, unreadForB: 0, daysAgo: 6 });
    if (fourth && demo.gender === "female") await talk(tx, defaultSiteId, now, { a: fourth, b: demo.id, count: 3, unreadForB: 0, daysAgo: 9 });
  }
  // Among other members: pairs of each site's members, a few days of history each.
  const members = await tx
    .select({ id: profiles.id, siteId: profiles.siteId })
    .from(profiles)
    .where(sql`${profiles.id} not in (${sql.join(demoProfiles.map((p) => sql`${p.id}`), sql`, `)})`)
    .orderBy(asc(profiles.siteId), asc(profiles.id));
  const bySite = new Map<number, number[]>();
  for (const m of members) bySite.set(m.siteId, [...(bySite.get(m.siteId) ?? []), m.id]);
  for (const [siteId, ids] of bySite) {
    for (let i = 10; i + 1 < ids.length && i < 40; i += 6) {
      const a = ids[i];
      const b = ids[i + 1];
      if (a && b) await talk(tx, siteId, now, { a, b, count: 3 + (i % 5), unreadForB: i % 3 === 0 ? 1 : 0, daysAgo: 2 + (i % 7) });
    }
  }
}
