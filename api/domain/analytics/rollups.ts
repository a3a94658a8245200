import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

/**
 * Keeping the analytics rollups (api/db/schema/analytics.ts, docs/staff.md Analytics) up to date. Signups, activations
 * and payments add to them in the transaction of the event, one upsert each; messages are rolled up in bounded batches
 * after the send (rollUpMessages), so a send stays one statement (ADR 020) and no row of a busy site's day is locked by
 * every send. A day is the site's day: the event's time in sites.time_zone.
 */

type Runner = Pick<Db, "execute">;

const funnelKey = sql.raw("site_id, day, network, ref, sub1, sub2, sub3, lander");
const funnelSteps = { signups: "signups", activations: "activations", first_purchases: "first_purchases" } as const;

/** A member's step of the funnel (signed up, confirmed the address), counted on the site's day of `at` under the member's traffic source and lander. */
export async function countFunnelStep(tx: Runner, userId: number, step: keyof typeof funnelSteps, at: Date): Promise<void> {
  const column = sql.raw(funnelSteps[step]);
  await tx.execute(sql`
    insert into analytics_funnel_days as f (${funnelKey}, ${column})
    select u.site_id, (${at.toISOString()}::timestamptz at time zone s.time_zone)::date,
           coalesce(u.network, ''), coalesce(u.ref, ''), coalesce(u.sub1, ''), coalesce(u.sub2, ''), coalesce(u.sub3, ''), coalesce(u.lander, ''), 1
      from users u join sites s on s.id = u.site_id
     where u.id = ${userId}
    on conflict (${funnelKey}) do update set ${column} = f.${column} + 1`);
}

/** A visit of a landing or lander page, or an entry through a tracked URL (no personal data: the day, the source and the page). */
export async function countFunnelVisit(
  db: Runner,
  siteId: number,
  visit: { network: string; ref: string; sub1: string; sub2: string; sub3: string; lander: string },
  at: Date,
): Promise<void> {
  await db.execute(sql`
    insert into analytics_funnel_days as f (${funnelKey}, visits)
    select s.id, (${at.toISOString()}::timestamptz at time zone s.time_zone)::date,
           ${visit.network}, ${visit.ref}, ${visit.sub1}, ${visit.sub2}, ${visit.sub3}, ${visit.lander}, 1
      from sites s where s.id = ${siteId}
    on conflict (${funnelKey}) do update set visits = f.visits + 1`);
}

const revenueKey = sql.raw("site_id, day, currency, country, method, package_id, discount_code");

/**
 * A payment became paid (in the transaction that made it so): its site's day and its member's previous payment's,
 * its day's revenue, its member's cohort (when paid within 30 days of signing up), and the funnel's first purchase
 * when the member had never paid before.
 */
export async function countPaymentPaid(tx: Runner, paymentId: number): Promise<void> {
  await tx.execute(sql`
    with p as (
      select p.site_id, p.user_id, p.paid_at, p.currency, p.country, p.method, coalesce(p.package_id, 0) as package_id,
             coalesce(p.discount_code, '') as discount_code, p.amount, p.discount_amount, p.transaction_costs, s.time_zone,
             u.signup_date, coalesce(u.network, '') as network, coalesce(u.ref, '') as ref, coalesce(u.sub1, '') as sub1,
             coalesce(u.sub2, '') as sub2, coalesce(u.sub3, '') as sub3, coalesce(u.lander, '') as lander,
             not exists (select 1 from payments q where q.user_id = p.user_id and q.id <> p.id and q.paid_at is not null) as first
        from payments p join sites s on s.id = p.site_id join users u on u.id = p.user_id
       where p.id = ${paymentId} and p.paid_at is not null
    ), days as (
      -- Its site's day, and that of the member's payment in this currency paid before it, in the order of paid times
      -- and ids (as api/db/functions/analytics_rebuild.sql sets them for those already paid).
      update payments q set paid_day = (p.paid_at at time zone p.time_zone)::date,
             previous_paid_day = (
               select (max(o.paid_at) at time zone p.time_zone)::date from payments o
                where o.user_id = p.user_id and o.currency = p.currency and o.paid_at is not null and (o.paid_at, o.id) < (p.paid_at, q.id))
        from p where q.id = ${paymentId}
    ), revenue as (
      insert into analytics_revenue_days as r (${revenueKey}, payments, first_purchases, amount, discount_amount, costs)
      select site_id, (paid_at at time zone time_zone)::date, currency, country, method, package_id, discount_code, 1, first::int, amount, discount_amount, transaction_costs
        from p
      on conflict (${revenueKey}) do update set payments = r.payments + 1, first_purchases = r.first_purchases + excluded.first_purchases,
        amount = r.amount + excluded.amount, discount_amount = r.discount_amount + excluded.discount_amount, costs = r.costs + excluded.costs
    ), cohort as (
      insert into analytics_cohort_days as c (site_id, day, currency, paid_1, paid_7, paid_30, revenue_1, revenue_7, revenue_30)
      select site_id, (signup_date at time zone time_zone)::date, currency,
             (first and paid_at < signup_date + interval '1 day')::int, (first and paid_at < signup_date + interval '7 days')::int, first::int,
             case when paid_at < signup_date + interval '1 day' then amount else 0 end,
             case when paid_at < signup_date + interval '7 days' then amount else 0 end, amount
        from p where paid_at < signup_date + interval '30 days'
      on conflict (site_id, day, currency) do update set paid_1 = c.paid_1 + excluded.paid_1, paid_7 = c.paid_7 + excluded.paid_7,
        paid_30 = c.paid_30 + excluded.paid_30, revenue_1 = c.revenue_1 + excluded.revenue_1, revenue_7 = c.revenue_7 + excluded.revenue_7,
        revenue_30 = c.revenue_30 + excluded.revenue_30
    )
    insert into analytics_funnel_days as f (${funnelKey}, first_purchases)
    select site_id, (paid_at at time zone time_zone)::date, network, ref, sub1, sub2, sub3, lander, 1 from p where first
    on conflict (${funnelKey}) do update set first_purchases = f.first_purchases + 1`);
}

/** A paid payment was refunded (in the refund's transaction): the refund on its own day, and its amount off the member's cohort. */
export async function countPaymentRefunded(tx: Runner, paymentId: number): Promise<void> {
  await tx.execute(sql`
    with p as (
      select p.site_id, p.paid_at, p.refunded_at, p.currency, p.country, p.method, coalesce(p.package_id, 0) as package_id,
             coalesce(p.discount_code, '') as discount_code, coalesce(p.refund_amount, p.amount) as amount, s.time_zone, u.signup_date
        from payments p join sites s on s.id = p.site_id join users u on u.id = p.user_id
       where p.id = ${paymentId} and p.paid_at is not null and p.refunded_at is not null
    ), refund as (
      insert into analytics_revenue_days as r (${revenueKey}, refunds, refunded_amount)
      select site_id, (refunded_at at time zone time_zone)::date, currency, country, method, package_id, discount_code, 1, amount from p
      on conflict (${revenueKey}) do update set refunds = r.refunds + 1, refunded_amount = r.refunded_amount + excluded.refunded_amount
    )
    insert into analytics_cohort_days as c (site_id, day, currency, revenue_1, revenue_7, revenue_30)
    select site_id, (signup_date at time zone time_zone)::date, currency,
           case when paid_at < signup_date + interval '1 day' then -amount else 0 end,
           case when paid_at < signup_date + interval '7 days' then -amount else 0 end, -amount
      from p where paid_at < signup_date + interval '30 days'
    on conflict (site_id, day, currency) do update set revenue_1 = c.revenue_1 + excluded.revenue_1,
      revenue_7 = c.revenue_7 + excluded.revenue_7, revenue_30 = c.revenue_30 + excluded.revenue_30`);
}

/** The most messages one roll-up reads (the scheduled job reads batches until it has caught up; an analytics request reads one before it answers). */
export const messageBatch = 5_000;
/** Messages younger than this are left for the next roll-up: a send still committing may hold a lower id. */
const settleSeconds = 5;

/**
 * Rolls the messages sent since the last roll-up into analytics_chat_days (members' paid messages, credits by kind, to
 * site-run profiles) and the funnel's first messages (users.first_message_at), at most `limit` messages in id order, in
 * one transaction that holds the progress row: two roll-ups at once never count a message twice (the second skips).
 * Answers how many messages it read.
 */
export async function rollUpMessages(db: Db, limit = messageBatch): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`insert into analytics_progress (name, last_id) values ('messages', 0) on conflict do nothing`);
    const held = (await tx.execute(sql`select last_id from analytics_progress where name = 'messages' for update skip locked`)) as unknown as { rows: { last_id: string | number }[] };
    const progress = held.rows[0];
    if (!progress) return 0;
    const result = (await tx.execute(sql`
      with candidates as (
        select m.id, m.created_at, m.kind, m.credits, m.sender_profile_id, c.site_id, c.fictional_profile_id
          from messages m join conversations c on c.id = m.conversation_id
         where m.id > ${Number(progress.last_id)} order by m.id limit ${limit}
      ), batch as (
        select * from candidates
         where id < coalesce((select min(id) from candidates where created_at >= now() - make_interval(secs => ${settleSeconds})), 9223372036854775807)
      ), member_sent as (
        select b.*, p.user_id, s.time_zone from batch b join profiles p on p.id = b.sender_profile_id join sites s on s.id = b.site_id where not p.fictional
      ), chat as (
        insert into analytics_chat_days as d (site_id, day, paid_messages, to_site_run, credits_message, credits_gift, credits_photo)
        select site_id, (created_at at time zone time_zone)::date, count(*),
               count(*) filter (where fictional_profile_id is not null and fictional_profile_id <> sender_profile_id),
               coalesce(sum(credits) filter (where kind in ('text', 'icebreaker', 'gif')), 0),
               coalesce(sum(credits) filter (where kind = 'gift'), 0), coalesce(sum(credits) filter (where kind = 'image'), 0)
          from member_sent where credits > 0 group by 1, 2
        on conflict (site_id, day) do update set paid_messages = d.paid_messages + excluded.paid_messages, to_site_run = d.to_site_run + excluded.to_site_run,
          credits_message = d.credits_message + excluded.credits_message, credits_gift = d.credits_gift + excluded.credits_gift,
          credits_photo = d.credits_photo + excluded.credits_photo
      ), firsts as (
        update users u set first_message_at = f.at
          from (select user_id, min(created_at) as at from member_sent group by user_id) f
         where u.id = f.user_id and u.first_message_at is null
        returning u.id, u.site_id, f.at, coalesce(u.network, '') as network, coalesce(u.ref, '') as ref, coalesce(u.sub1, '') as sub1,
                  coalesce(u.sub2, '') as sub2, coalesce(u.sub3, '') as sub3, coalesce(u.lander, '') as lander
      ), funnel as (
        insert into analytics_funnel_days as f (${funnelKey}, first_messages)
        select x.site_id, (x.at at time zone s.time_zone)::date, network, ref, sub1, sub2, sub3, lander, count(*)
          from firsts x join sites s on s.id = x.site_id group by 1, 2, 3, 4, 5, 6, 7, 8
        on conflict (${funnelKey}) do update set first_messages = f.first_messages + excluded.first_messages
      )
      select count(*)::int as n, max(id) as last from batch`)) as unknown as { rows: { n: number; last: string | number | null }[] };
    const read = result.rows[0];
    if (read?.last !== null && read?.last !== undefined) {
      await tx.execute(sql`update analytics_progress set last_id = ${Number(read.last)} where name = 'messages'`);
    }
    return Number(read?.n ?? 0);
  });
}
