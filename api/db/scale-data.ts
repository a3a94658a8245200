import { City } from "country-state-city";
import { faker } from "@faker-js/faker";
import { placeRegion } from "../services/regions";

/*
 * A real site's shape at any size, in bulk SQL (generate_series and INSERT ... SELECT, no api): members of the default
 * site and the niche sites across countries, regions, ages and both genders; photos; likes and matches; conversations
 * among members and with site-run profiles and their messages; payments and ledgers whose sums equal the balances;
 * operators' replies, reports, complaints, audit entries, logins, blocks, discovery decisions, funnel visits.
 * Added on top of the demo data (api/db/seed.ts), whose accounts it gives a heavy member's share (the bench logs in
 * as them). Pseudo-random values come from hashint4 of a row's number, so a size always makes the same data.
 * docs/performance.md (the data generator) says how to run it; scripts/seed.ts is its command.
 */

export type ScaleOptions = {
  /** Members added to the default site. */
  members: number;
  /** Members added to the other sites together (spread over them). */
  otherMembers: number;
  /** Messages, in conversations of about ten messages each. */
  messages: number;
  /** Likes given, on average per added member (and a tenth of them returned: matches). */
  likesPerMember: number;
};

export const scalePresets: Record<string, ScaleOptions> = {
  tiny: { members: 5_000, otherMembers: 500, messages: 50_000, likesPerMember: 3 },
  small: { members: 50_000, otherMembers: 5_000, messages: 500_000, likesPerMember: 3 },
  medium: { members: 100_000, otherMembers: 10_000, messages: 1_000_000, likesPerMember: 3 },
  large: { members: 1_000_000, otherMembers: 100_000, messages: 10_000_000, likesPerMember: 3 },
};

/** Runs SQL on one connection (session settings and temporary tables live across calls). */
export type Exec = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

const memberCountries = [
  ["NL", 30],
  ["DE", 18],
  ["BE", 8],
  ["GB", 10],
  ["US", 8],
  ["FR", 5],
  ["AT", 4],
  ["CH", 3],
  ["PL", 3],
  ["DK", 2],
  ["SE", 2],
  ["NO", 2],
  ["FI", 1],
  ["IT", 2],
  ["ES", 2],
] as const;

const lines = [
  "Hi! I liked your profile, how is your week going?",
  "Hey, thanks for writing! Pretty good, busy at work. Yours?",
  "Same here. Looking forward to the weekend though.",
  "Any plans? I was thinking of a walk along the canals.",
  "That sounds lovely. I might go to a concert on Saturday.",
  "Oh nice, what kind of music?",
  "Mostly jazz, sometimes something louder :)",
  "Do you have a favourite place for coffee?",
  "There's a small place near the station with the best cappuccino in town.",
  "You have to show me some time!",
  "Good morning! Did you sleep well?",
  "I just saw your photos again, you have a great smile.",
  "What made you sign up here?",
  "Honestly? Curiosity. And you?",
  "Tell me something about yourself nobody would guess.",
  "I love travelling, last year I was in Portugal.",
  "What do you do for a living?",
  "I'm a nurse, long shifts but I love it.",
  "Are you free this weekend?",
  "Sorry for the late answer, it was a busy day.",
];

const q = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** Places members live in: up to 12 cities a country with their region, repeated by the country's weight. */
function placeRows(): string[] {
  const rows: string[] = [];
  for (const [country, weight] of memberCountries) {
    const cities = (City.getCitiesOfCountry(country) ?? []).filter((c) => placeRegion(country, c.stateCode) !== null);
    const picked = Array.from({ length: Math.min(12, cities.length) }, (_, i) => cities[Math.floor((i * cities.length) / Math.min(12, cities.length))]!);
    for (let w = 0; w < weight; w++) {
      for (const city of picked) rows.push(`(${q(country)}, ${q(placeRegion(country, city.stateCode) ?? "")}, ${q(city.name)})`);
    }
  }
  return rows;
}

function nameRows(): string[] {
  faker.seed(51);
  const rows: string[] = [];
  for (const gender of ["female", "male"] as const) {
    const names = [...new Set(Array.from({ length: 600 }, () => faker.person.firstName(gender)))].slice(0, 200);
    for (const name of names) rows.push(`(${q(gender)}, ${q(name)})`);
  }
  return rows;
}

/** h(x, salt): a non-negative pseudo-random integer of a row number, in SQL. */
const h = (x: string, salt: number) => `(hashint4((${x})::int * 7 + ${salt}) & 2147483647)`;

/**
 * Adds `options`'s data to a database that holds the demo data (sites, demo accounts, demo staff). `log` gets a line per
 * step with its time. Answers the counts it made.
 */
export async function generateScaleData(exec: Exec, options: ScaleOptions, log: (line: string) => void = () => undefined): Promise<Record<string, number>> {
  const step = async (name: string, text: string) => {
    const started = Date.now();
    await exec(text);
    log(`${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  const one = async (text: string) => (await exec(text)).rows[0] ?? {};
  const num = (value: unknown) => Number(value ?? 0);

  // Bulk load: foreign keys are checked by construction here (session_replication_role skips their triggers), the
  // commit does not wait for the WAL flush, and sorts and hashes get memory.
  await exec("set session_replication_role = replica");
  await exec("set synchronous_commit = off");
  await exec("set work_mem = '256MB'");
  await exec("set maintenance_work_mem = '512MB'");

  const site = await one("select id, message_credits from sites where is_default");
  const siteId = num(site.id);
  const messageCredits = num(site.message_credits) || 10;
  if (!siteId) throw new Error("no default site: the generator adds to a database with the demo data");
  const otherSites = (await exec("select id, niche from sites where not is_default order by id")).rows.map((r) => ({ id: num(r.id), niche: num(r.niche) }));
  const hash = String((await one("select password_hash from users where email = 'demo@example.com'")).password_hash ?? "");
  const files = (await exec("select filename from photos where filename like 'demo/%' order by id")).rows.map((r) => String(r.filename));
  if (!hash || files.length === 0) throw new Error("the demo accounts are missing: the generator adds to a database with the demo data");
  const pkg = await one(`select id, credits, amount, currency from credit_packages where site_id = ${siteId} and country = 'NL' order by credits desc limit 1`);

  await exec(`create temporary table gen_places (idx serial, country text, region text, city text)`);
  await exec(`insert into gen_places (country, region, city) values ${placeRows().join(", ")}`);
  await exec(`create temporary table gen_names (gender text, idx int, name text)`);
  await exec(`insert into gen_names (gender, idx, name) select gender, (row_number() over (partition by gender order by name))::int - 1, name from (values ${nameRows().join(", ")}) v(gender, name)`);
  await exec(`create temporary table gen_files (idx int, filename text)`);
  await exec(`insert into gen_files values ${files.map((f, i) => `(${i}, ${q(f)})`).join(", ")}`);
  await exec(`create temporary table gen_lines (idx int, body text)`);
  await exec(`insert into gen_lines values ${lines.map((l, i) => `(${i}, ${q(l)})`).join(", ")}`);
  const places = num((await one("select count(*) n from gen_places")).n);
  const namesPerGender = num((await one("select min(c) n from (select count(*) c from gen_names group by gender) x")).n);

  const userLo = num((await one("select coalesce(max(id), 0) n from users")).n);
  const total = options.members + options.otherMembers;
  // Members in signup order over three years; the default site's first, then the other sites' in turn.
  const siteOf =
    otherSites.length === 0
      ? `${siteId}`
      : `case when g <= ${options.members} then ${siteId} else (array[${otherSites.map((s) => s.id).join(",")}])[1 + (g % ${otherSites.length})] end`;
  await step(
    `users: ${total}`,
    `insert into users (site_id, email, password_hash, status, credits, paid_user, signup_date, language, network, ref, sub1, email_confirmed_at, deleted_at)
     select ${siteOf}, 'member' || g || '@scale.example', ${q(hash)},
            case when ${h("g", 1)} % 50 = 7 then 'not_confirmed' when ${h("g", 1)} % 50 = 13 then 'deleted' else 'active' end,
            0, false, at, (array['en','en','en','nl','nl','de','de','fr','it','es','pl','da','fi','nb','sv'])[1 + ${h("g", 2)} % 15],
            case when ${h("g", 3)} % 10 < 3 then (array['adnet','social','affiliate'])[1 + ${h("g", 4)} % 3] end,
            case when ${h("g", 3)} % 10 < 3 then 'ref' || (${h("g", 5)} % 20) end,
            case when ${h("g", 3)} % 10 < 2 then 'c' || (${h("g", 6)} % 50) end,
            case when ${h("g", 1)} % 50 <> 7 then at + interval '10 minutes' end,
            case when ${h("g", 1)} % 50 = 13 then at + interval '30 days' end
       from (select g, now() - interval '1095 days' * (1 - (case when g <= ${options.members} then g::float8 / ${Math.max(1, options.members)} else (g - ${options.members})::float8 / ${Math.max(1, options.otherMembers)} end)) - make_interval(secs => ${h("g", 7)} % 3600) as at
               from generate_series(1, ${total}) g) s
      order by g`,
  );
  const niche = otherSites.length ? `case u.site_id ${otherSites.map((s) => `when ${s.id} then ${s.niche}`).join(" ")} else 1 end` : "1";
  const profileLo = num((await one("select coalesce(max(id), 0) n from profiles")).n);
  await step(
    "profiles",
    `insert into profiles (user_id, site_id, name, country, region, city, status, date_of_birth, gender, sexuality, about_me, interests,
                           hair_color, eye_color, body_type, relationship_status, invisible, fictional, created_at)
     select x.id, x.site_id, n.name, p.country, nullif(p.region, ''), p.city, case when x.status = 'active' then 'active' else 'disabled' end,
            (x.signup_date - make_interval(years => x.age, days => ${h("x.g", 12)} % 365))::date,
            x.gender, case when x.gender = 'male' and x.niche = 7 then 'gay' when x.niche = 2 then 'lesbian' when ${h("x.g", 13)} % 20 = 0 then 'bi' else 'hetero' end,
            (select body from gen_lines where idx = ${h("x.g", 14)} % ${lines.length}),
            jsonb_build_array(1 + ${h("x.g", 15)} % 20, 1 + ${h("x.g", 16)} % 20),
            (array['blonde','brown','black','red','grey'])[1 + ${h("x.g", 17)} % 5], (array['blue','brown','green','grey'])[1 + ${h("x.g", 18)} % 4],
            (array['slim','average','athletic','curvy','large'])[1 + ${h("x.g", 19)} % 5], (array['single','divorced','widowed','relationship'])[1 + ${h("x.g", 20)} % 4],
            ${h("x.g", 21)} % 50 = 0, x.fictional, x.signup_date
       from (select u.*, u.id - ${userLo} as g, ${niche} as niche,
                    case when (${niche}) = 7 then 'male' when (${niche}) = 1 and ${h("u.id", 10)} % 100 >= 45 and ${h("u.id", 11)} % 100 <> 0 then 'male' else 'female' end as gender,
                    18 + floor(62 * power((${h("u.id", 22)} % 1000) / 1000.0, 1.7))::int as age,
                    ${h("u.id", 11)} % 100 = 0 and u.status = 'active' as fictional
               from users u where u.id > ${userLo}) x
       join gen_places p on p.idx = 1 + ${h("x.g", 23)} % ${places}
       join gen_names n on n.gender = x.gender and n.idx = ${h("x.g", 24)} % ${namesPerGender}
      order by x.id`,
  );
  const defaultHi = profileLo + options.members;
  await step(
    "photos",
    `insert into photos (profile_id, site_id, filename, thumb_filename, status, position, created_at, reviewed_at)
     select p.id, p.site_id, f.filename, f.filename,
            case when p.created_at > now() - interval '2 days' and k = 1 then 'pending' else 'active' end, k - 1, p.created_at + make_interval(mins => k),
            case when p.created_at > now() - interval '2 days' and k = 1 then null else p.created_at + interval '1 hour' end
       from profiles p
       cross join lateral generate_series(1, 1 + ${h("p.id", 31)} % 3) k
       join gen_files f on f.idx = ${h("p.id * 3 + k", 32)} % ${files.length}
      where p.id > ${profileLo} and (p.fictional or ${h("p.id", 30)} % 10 < 7)`,
  );

  // The default site's added profiles, numbered, and its site-run ones: the pools likes and conversations draw from.
  await exec(`create temporary table gen_members as select (row_number() over (order by id))::int - 1 as idx, id, user_id, created_at, fictional from profiles where id > ${profileLo} and id <= ${defaultHi} and status = 'active' and not fictional`);
  await exec(`create temporary table gen_fictional as select (row_number() over (order by id))::int - 1 as idx, id, created_at from profiles where site_id = ${siteId} and fictional and status = 'active'`);
  await exec("create unique index on gen_members (idx)");
  await exec("create unique index on gen_fictional (idx)");
  await exec("analyze gen_members; analyze gen_fictional");
  const memberCount = num((await one("select count(*) n from gen_members")).n);
  const fictionalCount = num((await one("select count(*) n from gen_fictional")).n);
  const premium = await one("select p.id, p.user_id from profiles p join users u on u.id = p.user_id where u.email = 'premium@example.com'");
  const demo = await one("select p.id, p.user_id from profiles p join users u on u.id = p.user_id where u.email = 'demo@example.com'");

  const likeCount = Math.round(memberCount * options.likesPerMember);
  await step(
    `likes: ${likeCount} and the demo accounts'`,
    `insert into likes (liker_profile_id, liked_profile_id, is_new, source, created_at)
     select a.id, b.id, at > now() - interval '7 days', (array['profile','profile','swipe','match_finder','auto'])[1 + ${h("g", 43)} % 5], at
       from (select g, ${h("g", 40)} % ${memberCount} as ai, ${h("g", 41)} % 10 as kind, ${h("g", 42)} as r from generate_series(1, ${likeCount}) g) s
       join gen_members a on a.idx = s.ai
       join lateral (select id, created_at from gen_members where idx = s.r % ${memberCount} and s.kind >= 4
                     union all select id, created_at from gen_fictional where idx = s.r % ${Math.max(1, fictionalCount)} and s.kind < 4) b on true
       cross join lateral (select greatest(a.created_at, b.created_at) + (now() - greatest(a.created_at, b.created_at)) * ((${h("g", 44)} % 1000) / 1000.0) as at) t
      where a.id <> b.id
     on conflict do nothing;
     insert into likes (liker_profile_id, liked_profile_id, is_new, source, created_at)
     select m.id, d.id, m.idx % 10 = 0, 'profile', now() - make_interval(hours => m.idx % 2000)
       from gen_members m cross join (values (${num(premium.id)}, 2000), (${num(demo.id)}, 300)) d(id, n)
      where m.idx % greatest(1, ${memberCount} / d.n) = 0
     on conflict do nothing;
     insert into likes (liker_profile_id, liked_profile_id, is_new, source, created_at)
     select l.liked_profile_id, l.liker_profile_id, false, 'profile', l.created_at + interval '1 hour'
       from likes l join profiles p on p.id = l.liked_profile_id and not p.fictional
      where l.liker_profile_id > ${profileLo} and ${h("l.liker_profile_id + l.liked_profile_id", 45)} % 10 = 0
     on conflict do nothing`,
  );

  // Conversations: about ten messages each; a seventh of the members chat, seven in ten of their conversations with a
  // site-run profile; the demo accounts have hundreds.
  const conversationTarget = Math.max(1, Math.round(options.messages / 10));
  const chatters = Math.max(1, Math.floor(memberCount / 7));
  const conversationLo = num((await one("select coalesce(max(id), 0) n from conversations")).n);
  await step(
    `conversations: up to ${conversationTarget}`,
    `insert into conversations (site_id, low_profile_id, high_profile_id, created_at)
     select ${siteId}, least(a, b), greatest(a, b), now() from (
       select a.id as a, b.id as b
         from (select g, (${h("g", 50)} % ${chatters}) * 7 % ${memberCount} as ai, ${h("g", 51)} % 10 as kind, ${h("g", 52)} as r from generate_series(1, ${conversationTarget}) g) s
         join gen_members a on a.idx = s.ai
         join lateral (select id from gen_members where idx = s.r % ${memberCount} and s.kind >= 7
                       union all select id from gen_fictional where idx = s.r % ${Math.max(1, fictionalCount)} and s.kind < 7) b on true
        where a.id <> b.id
       union all
       select d.id, f.id from (values (${num(premium.id)}, 300), (${num(demo.id)}, 30)) d(id, n)
         cross join lateral (select id from gen_members where idx < d.n * 3 and idx % 3 = 0 union all select id from gen_fictional where idx < d.n / 3) f
     ) pairs
     on conflict do nothing`,
  );
  await exec(`create temporary table gen_conversations as
    select (row_number() over (order by c.id))::int - 1 as idx, c.id, c.low_profile_id as low, c.high_profile_id as high,
           case when lp.fictional <> hp.fictional then case when lp.fictional then lp.id else hp.id end end as fictional,
           greatest(lp.created_at, hp.created_at, now() - interval '365 days') as since
      from conversations c join profiles lp on lp.id = c.low_profile_id join profiles hp on hp.id = c.high_profile_id
     where c.id > ${conversationLo}`);
  await exec("create unique index on gen_conversations (idx); analyze gen_conversations");
  const conversationCount = num((await one("select count(*) n from gen_conversations")).n);

  // Messages in time order (ids follow time, as they do live), each in a conversation after both members signed up.
  const messageLo = num((await one("select coalesce(max(id), 0) n from messages")).n);
  await step(
    `messages: ${options.messages}`,
    `insert into messages (conversation_id, sender_profile_id, kind, body, credits, created_at)
     select s.id, s.sender, 'text', l.body, case when s.sender = s.fictional then 0 else ${messageCredits} end, s.at
       from (select c.id, c.fictional,
                    case when ${h("g", 61)} % 2 = 0 then c.low else c.high end as sender,
                    c.since + (now() - interval '5 minutes' - c.since) * ((${h("g", 62)} % 100000) / 100000.0) as at,
                    ${h("g", 63)} % ${lines.length} as line
               from generate_series(1, ${options.messages}) g
               join gen_conversations c on c.idx = ${h("g", 60)} % ${conversationCount}) s
       join gen_lines l on l.idx = s.line
      order by s.at`,
  );
  await exec(`create temporary table gen_ends as
    select conversation_id, min(id) as first_id, max(id) as last_id from messages where id > ${messageLo} group by conversation_id`);
  await exec("create unique index on gen_ends (conversation_id); analyze gen_ends");
  // Operators answer: a conversation with a site-run profile ends with its answer unless the member wrote in the last
  // three hours (the inbox's queue is the recent ones, as on a site that is staffed).
  await step(
    "last answers",
    `update messages m set sender_profile_id = c.fictional, credits = 0
       from gen_ends e join gen_conversations c on c.id = e.conversation_id
      where m.id = e.last_id and c.fictional is not null and m.sender_profile_id <> c.fictional and m.created_at < now() - interval '3 hours'`,
  );
  await step(
    "conversations' ends and sides",
    `update conversations c set created_at = fm.created_at, started_by = fm.sender_profile_id, last_message_id = e.last_id
       from gen_ends e join messages fm on fm.id = e.first_id
      where c.id = e.conversation_id;
     delete from conversations c where c.id > ${conversationLo} and c.last_message_id is null;
     insert into conversation_members (conversation_id, profile_id, other_profile_id, unread_count, last_read_message_id, last_message_id)
     select c.id, side.profile_id, side.other_id,
            case when lm.sender_profile_id <> side.profile_id and lm.created_at > now() - interval '3 days' then 1 else 0 end,
            case when lm.sender_profile_id <> side.profile_id and lm.created_at > now() - interval '3 days' then 0 else lm.id end,
            lm.id
       from conversations c join messages lm on lm.id = c.last_message_id
       cross join lateral (values (c.low_profile_id, c.high_profile_id), (c.high_profile_id, c.low_profile_id)) side(profile_id, other_id)
      where c.id > ${conversationLo};
     select conversation_inbox_backfill(${conversationLo})`,
  );

  // Payments and ledgers: every member's ledger adds up to their balance. A member who spent more than the signup
  // credits bought what they spent in bundles of the largest package, just before their first paid message.
  const paymentLo = num((await one("select coalesce(max(id), 0) n from payments")).n);
  const bundle = num(pkg.credits) || 500;
  await exec(`create temporary table gen_spend as
    select p.user_id, sum(m.credits)::int as spent, min(m.created_at) as first_at, u.signup_date, u.id > ${userLo} as added
      from messages m join profiles p on p.id = m.sender_profile_id join users u on u.id = p.user_id
     where m.id > ${messageLo} and m.credits > 0 group by p.user_id, u.signup_date, u.id`);
  await step(
    "payments",
    `insert into payments (user_id, site_id, package_id, credits, amount, currency, country, method, provider, status, reference, created_at, paid_at, finished_at)
     select s.user_id, ${siteId}, ${num(pkg.id) || "null"}, units * ${bundle}, units * ${num(pkg.amount) || 4999}, ${q(String(pkg.currency ?? "EUR"))}, 'NL',
            (array['ideal','cards','paypal','sofort'])[1 + ${h("s.user_id", 70)} % 4], 'sandbox', 'paid', 'scale-' || s.user_id, at, at, at
       from (select s.*, ceil((s.spent - case when s.added then 20 else 0 end)::numeric / ${bundle})::int as units,
                    greatest(s.signup_date, s.first_at - interval '1 hour') as at
               from gen_spend s) s
      where s.units > 0;
     insert into payments (user_id, site_id, package_id, credits, amount, currency, country, method, provider, status, reference, created_at, finished_at)
     select p.user_id, p.site_id, p.package_id, p.credits, p.amount, p.currency, p.country, p.method, p.provider,
            (array['failed','cancelled','expired'])[1 + ${h("p.id", 71)} % 3], p.reference || '-x', p.created_at - interval '10 minutes', p.created_at - interval '5 minutes'
       from payments p where p.id > ${paymentLo} and ${h("p.id", 72)} % 10 = 0;
     update credit_packages cp set payments_count = cp.payments_count + c.n
       from (select package_id, count(*)::int as n from payments where id > ${paymentLo} and package_id is not null group by package_id) c
      where cp.id = c.package_id`,
  );
  const ledgerLo = num((await one("select coalesce(max(id), 0) n from credit_ledger")).n);
  await step(
    "ledger",
    `insert into credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
     select user_id, delta, (start + sum(delta) over (partition by user_id order by at, ord, ref_id rows unbounded preceding))::int, reason, reference, at
       from (select u.id as user_id, 20 as delta, 'signup' as reason, null::text as reference, u.signup_date as at, 0 as ord, 0 as ref_id, 0 as start
               from users u where u.id > ${userLo}
             union all
             select p.user_id, p.credits, 'purchase', 'payment:' || p.id, p.paid_at, 1, p.id, case when p.user_id > ${userLo} then 0 else u.credits end
               from payments p join users u on u.id = p.user_id where p.id > ${paymentLo} and p.status = 'paid'
             union all
             select pr.user_id, -m.credits, 'message', 'message:' || m.id, m.created_at, 2, m.id, case when pr.user_id > ${userLo} then 0 else u.credits end
               from messages m join profiles pr on pr.id = m.sender_profile_id join users u on u.id = pr.user_id where m.id > ${messageLo} and m.credits > 0) x`,
  );
  await step(
    "balances",
    `update users u set credits = u.credits + d.delta
       from (select user_id, sum(delta)::int as delta from credit_ledger where id > ${ledgerLo} group by user_id) d
      where u.id = d.user_id;
     update users u set paid_user = true from payments p where p.user_id = u.id and p.id > ${paymentLo} and p.status = 'paid'`,
  );

  // Staff: nineteen more operators (the demo operator's password and second factor, if there is one), their replies, and a year of
  // moderation: reports with notes, complaints, audit entries.
  await step(
    "operators and their replies",
    `insert into staff_users (email, name, role, site_ids, password_hash, totp_secret, recovery_codes)
     select 'operator' || g || '@staff.example', 'Operator ' || g, 'operator', coalesce(s.site_ids, (select array_agg(id order by id) from sites)), s.password_hash, s.totp_secret, '{}'
       from generate_series(1, 19) g left join (select * from staff_users where email = 'operator@example.com') s on true
     on conflict do nothing;
     insert into operator_replies (message_id, staff_user_id, conversation_id, waited_seconds, created_at)
     select m.id, ops.ids[1 + ${h("m.id", 80)} % cardinality(ops.ids)], m.conversation_id, 20 + ${h("m.id", 81)} % 900, m.created_at
       from messages m join gen_conversations c on c.id = m.conversation_id
       cross join (select array_agg(id order by id) as ids from staff_users where role = 'operator') ops
      where m.id > ${messageLo} and m.sender_profile_id = c.fictional;
     select operator_follow_backfill(${conversationLo})`,
  );
  const staffIds = (await exec("select id, email, role from staff_users order by id")).rows;
  const admin = staffIds.find((r) => r.role === "admin") ?? staffIds[0];
  const moderator = staffIds.find((r) => r.role === "moderator") ?? admin;
  const reportCount = Math.max(100, Math.round(total / 50));
  await step(
    `reports: ${reportCount}, complaints, audit entries`,
    `insert into reports (site_id, source, reporter_user_id, reported_user_id, profile_id, reason, details, status, assignee_staff_id, created_at, updated_at)
     select ${siteId}, 'profile', a.user_id, b.user_id, b.id, (array['fake','spam','offensive','underage','other'])[1 + ${h("g", 90)} % 5], 'Reported from the profile page.',
            case when g > ${reportCount} - 200 then 'new' when g > ${reportCount} - 250 then 'in_progress' when ${h("g", 91)} % 4 = 0 then 'rejected' else 'resolved' end,
            case when g > ${reportCount} - 200 then null else ${num(moderator?.id)} end, at, at + interval '1 day'
       from (select g, now() - interval '365 days' * (1 - g::float8 / ${reportCount}) as at from generate_series(1, ${reportCount}) g) s
       join gen_members a on a.idx = ${h("g", 92)} % ${memberCount}
       join gen_members b on b.idx = ${h("g", 93)} % ${memberCount};
     insert into report_notes (report_id, staff_user_id, staff_name, kind, body, created_at)
     select r.id, ${num(moderator?.id)}, 'Mo Moderator', 'note', 'Checked the profile and its messages.', r.created_at + interval '2 hours'
       from reports r where r.status in ('resolved', 'rejected');
     insert into complaints (site_id, reference, name, email, content_url, reason, message, created_at)
     select ${siteId}, 'SCALE-' || g, 'Complainant ' || g, 'complainant' || g || '@mail.example', 'https://localhost/members/' || g, 'copyright', 'Please remove this content.',
            now() - make_interval(days => g % 365)
       from generate_series(1, ${Math.max(10, Math.round(total / 1000))}) g;
     insert into audit_log (staff_user_id, staff_email, role, action, target_type, target_id, site_id, changes, client_ip, at)
     select s.id, s.email, s.role, (array['member.suspend','photo.approve','photo.reject','report.resolve','member.credits','site.update'])[1 + ${h("g", 95)} % 6],
            'user', (${userLo} + 1 + ${h("g", 96)} % ${total})::text, ${siteId}, '{}'::jsonb, '127.0.0.1',
            now() - interval '365 days' * (1 - g::float8 / ${Math.round(total / 5)})
       from generate_series(1, ${Math.round(total / 5)}) g
       join (select (row_number() over (order by id))::int - 1 as idx, id, email, role from staff_users where role <> 'operator' or email = 'operator@example.com') s
         on s.idx = ${h("g", 97)} % (select count(*) from staff_users where role <> 'operator' or email = 'operator@example.com')`,
  );
  await step(
    "logins, blocks, discovery decisions, funnel visits, cam clicks",
    `insert into member_logins (user_id, at, client_ip)
     select u.id, now() - make_interval(mins => ${h("u.id", 100)} % 129600), '203.0.113.' || (${h("u.id", 101)} % 250)
       from users u where u.id > ${userLo} and u.status = 'active';
     insert into blocks (blocker_profile_id, blocked_profile_id, created_at)
     select a.id, b.id, now() - make_interval(days => g % 365)
       from generate_series(1, ${Math.max(10, Math.round(memberCount / 50))}) g
       join gen_members a on a.idx = ${h("g", 110)} % ${memberCount} join gen_members b on b.idx = ${h("g", 111)} % ${memberCount}
      where a.id <> b.id on conflict do nothing;
     insert into discovery_decisions (profile_id, target_profile_id, game, decision, created_at)
     select a.id, b.id, (array['swipe','match_finder'])[1 + g % 2], (array['like','pass','pass'])[1 + ${h("g", 120)} % 3], now() - make_interval(hours => g % 8760)
       from generate_series(1, ${memberCount}) g
       join gen_members a on a.idx = ${h("g", 121)} % ${Math.max(1, Math.floor(memberCount / 5))} join gen_members b on b.idx = ${h("g", 122)} % ${memberCount}
      where a.id <> b.id on conflict do nothing;
     insert into attribution_visits (day, site_id, network, ref, sub1, sub2, sub3, visits)
     select (now() - make_interval(days => d))::date, s.id, n.network, 'ref' || r, '', '', '', 50 + ${h("d * 100 + r", 130)} % 500
       from generate_series(0, 364) d cross join (select id from sites) s cross join (values ('adnet'), ('social'), ('affiliate')) n(network) cross join generate_series(0, 4) r
     on conflict do nothing;
     insert into cam_clicks (site_id, day, clicks)
     select ${siteId}, (now() - make_interval(days => d))::date, 100 + ${h("d", 140)} % 400 from generate_series(0, 364) d on conflict do nothing`,
  );
  await exec("set session_replication_role = origin");
  // The analytics rollups from the rows generated straight into their tables (migration 0036's analytics_rebuild).
  await step("analytics rollups", "select analytics_rebuild()");
  await step("analyze", "analyze");
  const counts: Record<string, number> = {};
  for (const table of ["users", "profiles", "photos", "likes", "conversations", "messages", "payments", "credit_ledger", "operator_replies", "reports", "audit_log"]) {
    counts[table] = num((await one(`select count(*) n from ${table}`)).n);
  }
  return counts;
}
