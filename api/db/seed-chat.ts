import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "./client";
import { conversationMembers, conversations, messages, profiles } from "./schema";
import { pairOf } from "../domain/chat";

/*
 * Demo conversations: days of history among demo members, and for the two demo
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

type Talk = { siteId: number; a: number; b: number; count: number; unreadForB: number; daysAgo: number };
type Line = { talk: number; fromA: boolean; body: string; at: Date };

/**
 * Writes the talks' messages in time order across all conversations (message ids follow time, as they do
 * live, so "by latest message" lists come out right), then each conversation and both members' sides.
 */
async function writeTalks(tx: Db, now: Date, talks: Talk[]): Promise<void> {
  const conversationIds: number[] = [];
  for (const t of talks) {
    const pair = pairOf(t.a, t.b);
    const [row] = await tx.insert(conversations).values({ siteId: t.siteId, lowProfileId: pair.low, highProfileId: pair.high, startedBy: t.a }).returning({ id: conversations.id });
    if (!row) throw new Error("conversation insert returned nothing");
    conversationIds.push(row.id);
  }
  const all: Line[] = talks.flatMap((t, talk) => {
    const start = now.getTime() - t.daysAgo * 86_400_000;
    const step = Math.floor((t.daysAgo * 86_400_000 - 3_600_000) / t.count);
    // Alternating, except that the last `unreadForB` messages all come from a, unread by b.
    return Array.from({ length: t.count }, (_, i) => ({ talk, fromA: i >= t.count - t.unreadForB || i % 2 === 0, body: lines[(i + t.a) % lines.length] ?? "Hi!", at: new Date(start + i * step) }));
  });
  all.sort((x, y) => x.at.getTime() - y.at.getTime());
  const ids = new Map<number, { ids: number[]; fromA: boolean[] }>();
  for (const line of all) {
    const t = talks[line.talk];
    const conversationId = conversationIds[line.talk];
    if (!t || conversationId === undefined) continue;
    const [message] = await tx
      .insert(messages)
      .values({ conversationId, senderProfileId: line.fromA ? t.a : t.b, body: line.body, credits: 0, createdAt: line.at })
      .returning({ id: messages.id });
    if (!message) throw new Error("message insert returned nothing");
    const entry = ids.get(line.talk) ?? { ids: [], fromA: [] };
    entry.ids.push(message.id);
    entry.fromA.push(line.fromA);
    ids.set(line.talk, entry);
  }
  for (const [index, t] of talks.entries()) {
    const entry = ids.get(index);
    const conversationId = conversationIds[index];
    if (!entry || conversationId === undefined) continue;
    const lastId = entry.ids[entry.ids.length - 1] ?? 0;
    const readByB = entry.ids[entry.ids.length - 1 - t.unreadForB] ?? 0;
    await tx.update(conversations).set({ lastMessageId: lastId }).where(eq(conversations.id, conversationId));
    await tx.insert(conversationMembers).values([
      { conversationId, profileId: t.a, otherProfileId: t.b, lastMessageId: lastId, lastReadMessageId: lastId },
      { conversationId, profileId: t.b, otherProfileId: t.a, lastMessageId: lastId, lastReadMessageId: readByB, unreadCount: t.unreadForB },
    ]);
  }
}

/** Conversations for the demo accounts (`demoProfiles`, on the default site) and among other demo members of every site. */
export async function seedConversations(tx: Db, now: Date, defaultSiteId: number, demoProfiles: { id: number; gender: "male" | "female" }[]): Promise<void> {
  const talks: Talk[] = [];
  const siteId = defaultSiteId;
  for (const demo of demoProfiles) {
    const others = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.siteId, defaultSiteId), ne(profiles.gender, demo.gender), eq(profiles.status, "active"), eq(profiles.invisible, false)))
      .orderBy(asc(profiles.id))
      .limit(4);
    const [first, second, third, fourth] = others.map((o) => o.id);
    // Two conversations others started with unread messages, one the demo member started (read), one older.
    if (first) talks.push({ siteId, a: first, b: demo.id, count: 7, unreadForB: 2, daysAgo: 3 });
    if (second) talks.push({ siteId, a: second, b: demo.id, count: 4, unreadForB: 1, daysAgo: 1 });
    if (third) talks.push({ siteId, a: demo.id, b: third, count: 9, unreadForB: 0, daysAgo: 6 });
    if (fourth && demo.gender === "female") talks.push({ siteId, a: fourth, b: demo.id, count: 3, unreadForB: 0, daysAgo: 9 });
  }
  // Among other members: pairs of each site's members, a few days of history each.
  const members = await tx
    .select({ id: profiles.id, siteId: profiles.siteId })
    .from(profiles)
    .where(sql`${profiles.id} not in (${sql.join(demoProfiles.map((p) => sql`${p.id}`), sql`, `)})`)
    .orderBy(asc(profiles.siteId), asc(profiles.id));
  const bySite = new Map<number, number[]>();
  for (const m of members) bySite.set(m.siteId, [...(bySite.get(m.siteId) ?? []), m.id]);
  for (const [site, ids] of bySite) {
    for (let i = 10; i + 1 < ids.length && i < 40; i += 6) {
      const a = ids[i];
      const b = ids[i + 1];
      if (a && b) talks.push({ siteId: site, a, b, count: 3 + (i % 5), unreadForB: i % 3 === 0 ? 1 : 0, daysAgo: 2 + (i % 7) });
    }
  }
  await writeTalks(tx, now, talks);
  // The operator inbox's state of the conversations written here (api/db/functions/conversation_inbox_backfill.sql; send_message keeps it live).
  await tx.execute(sql`select conversation_inbox_backfill(0)`);
}
