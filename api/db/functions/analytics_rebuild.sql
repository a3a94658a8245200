CREATE OR REPLACE FUNCTION analytics_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_since timestamptz := now() - interval '400 days';
BEGIN
  TRUNCATE analytics_funnel_days, analytics_funnel_totals, analytics_funnel_months, analytics_revenue_days, analytics_cohort_days, analytics_chat_days;
  DELETE FROM analytics_progress WHERE name = 'messages';
  INSERT INTO analytics_progress (name, last_id) SELECT 'messages', coalesce(max(id), 0) FROM messages;

  UPDATE users u SET first_message_at = f.at
    FROM (SELECT p.user_id, min(m.created_at) AS at
            FROM messages m JOIN profiles p ON p.id = m.sender_profile_id
           WHERE m.created_at >= v_since AND NOT p.fictional GROUP BY p.user_id) f
   WHERE u.id = f.user_id AND u.first_message_at IS NULL;

  INSERT INTO analytics_funnel_days (site_id, day, network, ref, sub1, sub2, sub3, lander, visits, signups, activations, first_messages, first_purchases)
  SELECT site_id, day, network, ref, sub1, sub2, sub3, lander, sum(visits), sum(signups), sum(activations), sum(first_messages), sum(first_purchases)
    FROM (
      SELECT v.site_id, v.day, v.network, v.ref, v.sub1, v.sub2, v.sub3, '' AS lander, v.visits, 0 AS signups, 0 AS activations, 0 AS first_messages, 0 AS first_purchases
        FROM attribution_visits v
      UNION ALL
      SELECT u.site_id, e.day, coalesce(u.network, ''), coalesce(u.ref, ''), coalesce(u.sub1, ''), coalesce(u.sub2, ''), coalesce(u.sub3, ''), coalesce(u.lander, ''),
             0, (e.step = 1)::int, (e.step = 2)::int, (e.step = 3)::int, (e.step = 4)::int
        FROM users u JOIN sites s ON s.id = u.site_id
        CROSS JOIN LATERAL (VALUES (1, (u.signup_date AT TIME ZONE s.time_zone)::date),
                                   (2, (u.email_confirmed_at AT TIME ZONE s.time_zone)::date),
                                   (3, (u.first_message_at AT TIME ZONE s.time_zone)::date)) e(step, day)
       WHERE e.day IS NOT NULL
      UNION ALL
      SELECT u.site_id, (f.at AT TIME ZONE s.time_zone)::date, coalesce(u.network, ''), coalesce(u.ref, ''), coalesce(u.sub1, ''), coalesce(u.sub2, ''), coalesce(u.sub3, ''),
             coalesce(u.lander, ''), 0, 0, 0, 0, 1
        FROM (SELECT user_id, min(paid_at) AS at FROM payments WHERE paid_at IS NOT NULL GROUP BY user_id) f
        JOIN users u ON u.id = f.user_id JOIN sites s ON s.id = u.site_id
    ) x
   GROUP BY site_id, day, network, ref, sub1, sub2, sub3, lander;

  -- Each paid payment's site's day and its member's previous one's in its currency (what the paying members of a period are counted by).
  UPDATE payments p SET paid_day = x.day, previous_paid_day = x.previous
    FROM (SELECT q.id, (q.paid_at AT TIME ZONE s.time_zone)::date AS day,
                 lag((q.paid_at AT TIME ZONE s.time_zone)::date) OVER (PARTITION BY q.user_id, q.currency ORDER BY q.paid_at, q.id) AS previous
            FROM payments q JOIN sites s ON s.id = q.site_id WHERE q.paid_at IS NOT NULL) x
   WHERE p.id = x.id AND (p.paid_day IS DISTINCT FROM x.day OR p.previous_paid_day IS DISTINCT FROM x.previous);

  INSERT INTO analytics_revenue_days (site_id, day, currency, country, method, package_id, discount_code, payments, first_purchases, amount, discount_amount, costs, refunds, refunded_amount)
  SELECT site_id, day, currency, country, method, package_id, discount_code, sum(n), sum(firsts), sum(amount), sum(discount_amount), sum(costs), sum(refunds), sum(refunded)
    FROM (
      SELECT p.site_id, (p.paid_at AT TIME ZONE s.time_zone)::date AS day, p.currency, p.country, p.method, coalesce(p.package_id, 0) AS package_id,
             coalesce(p.discount_code, '') AS discount_code, 1 AS n,
             (row_number() OVER (PARTITION BY p.user_id ORDER BY p.paid_at, p.id) = 1)::int AS firsts,
             p.amount, p.discount_amount, p.transaction_costs AS costs, 0 AS refunds, 0 AS refunded
        FROM payments p JOIN sites s ON s.id = p.site_id WHERE p.paid_at IS NOT NULL
      UNION ALL
      SELECT p.site_id, (p.refunded_at AT TIME ZONE s.time_zone)::date, p.currency, p.country, p.method, coalesce(p.package_id, 0), coalesce(p.discount_code, ''),
             0, 0, 0, 0, 0, 1, coalesce(p.refund_amount, p.amount)
        FROM payments p JOIN sites s ON s.id = p.site_id WHERE p.status = 'refunded' AND p.paid_at IS NOT NULL AND p.refunded_at IS NOT NULL
    ) x
   GROUP BY site_id, day, currency, country, method, package_id, discount_code;

  INSERT INTO analytics_cohort_days (site_id, day, currency, paid_1, paid_7, paid_30, revenue_1, revenue_7, revenue_30)
  SELECT u.site_id, (u.signup_date AT TIME ZONE s.time_zone)::date, p.currency,
         count(*) FILTER (WHERE p.first AND p.paid_at < u.signup_date + interval '1 day'),
         count(*) FILTER (WHERE p.first AND p.paid_at < u.signup_date + interval '7 days'),
         count(*) FILTER (WHERE p.first),
         coalesce(sum(p.net) FILTER (WHERE p.paid_at < u.signup_date + interval '1 day'), 0),
         coalesce(sum(p.net) FILTER (WHERE p.paid_at < u.signup_date + interval '7 days'), 0),
         coalesce(sum(p.net), 0)
    FROM (SELECT user_id, currency, paid_at, CASE WHEN status = 'refunded' THEN amount - coalesce(refund_amount, amount) ELSE amount END AS net,
                 row_number() OVER (PARTITION BY user_id ORDER BY paid_at, id) = 1 AS first
            FROM payments WHERE paid_at IS NOT NULL) p
    JOIN users u ON u.id = p.user_id JOIN sites s ON s.id = u.site_id
   WHERE p.paid_at < u.signup_date + interval '30 days'
   GROUP BY 1, 2, 3;

  INSERT INTO analytics_chat_days (site_id, day, paid_messages, to_site_run, credits_message, credits_gift, credits_photo)
  SELECT c.site_id, (m.created_at AT TIME ZONE s.time_zone)::date, count(*),
         count(*) FILTER (WHERE c.fictional_profile_id IS NOT NULL AND c.fictional_profile_id <> m.sender_profile_id),
         coalesce(sum(m.credits) FILTER (WHERE m.kind IN ('text', 'icebreaker', 'gif')), 0),
         coalesce(sum(m.credits) FILTER (WHERE m.kind = 'gift'), 0),
         coalesce(sum(m.credits) FILTER (WHERE m.kind = 'image'), 0)
    FROM messages m JOIN conversations c ON c.id = m.conversation_id JOIN sites s ON s.id = c.site_id
    JOIN profiles p ON p.id = m.sender_profile_id
   WHERE m.created_at >= v_since AND m.credits > 0 AND NOT p.fictional
   GROUP BY 1, 2;
END;
$$;
