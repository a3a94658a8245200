-- ADR 023. sendMessage (api/domain/chat.ts) stays one statement, and two things change in it.
--
-- The recipient's checks join it: the recipient is a member of the site other than the sender, neither has blocked
-- the other, and they can be written to (an unconfirmed member cannot yet, a disabled one not at all); then whether
-- a text is too long (the caller judges it and passes p_too_long, so the refusals keep their order). Each is
-- answered as r_outcome before anything is written, with the recipient's name in r_name where the answer shows it.
--
-- A send no longer NOTIFYs inside its transaction: a NOTIFY holds one lock for the whole cluster from just before
-- its commit until the commit is on disk, so every send waited for every other send's commit (api/events/announce.ts).
-- send_message answers r_announce (what to announce: "event id:profile id" pairs, comma-separated, the payload
-- format of the bus now) and r_pushed (a push was queued), and the api announces after the commit.
--
-- record_member_events is emit_member_events' work without the NOTIFYs; emit_member_events (every other cause of
-- events, inside the cause's transaction) calls it and then NOTIFYs as before, with the new payload.
--
-- The new send_message takes one parameter more (p_too_long), so it is an overload: 0024's stays for api instances of
-- the previous version while an upgrade rolls (docs/operations.md, Upgrades); a later migration drops it.
CREATE FUNCTION "record_member_events"(events jsonb, OUT r_announce text, OUT r_pushed boolean) LANGUAGE plpgsql AS $$
DECLARE
  recipient int;
BEGIN
  FOR recipient IN SELECT DISTINCT (e ->> 'profile_id')::int FROM jsonb_array_elements(events) AS e ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(1835366004, recipient);
  END LOOP;
  WITH inserted AS (
    INSERT INTO member_events (profile_id, kind, from_profile_id, conversation_id, message_id)
    SELECT v.profile_id, v.kind, v.from_profile_id, v.conversation_id, v.message_id
    FROM jsonb_to_recordset(events) AS v(profile_id int, kind text, from_profile_id int, conversation_id int, message_id int)
    RETURNING id, profile_id, kind, from_profile_id
  ),
  queued AS (
    INSERT INTO push_jobs (event_id, subscription_id)
    SELECT e.id, s.id
    FROM inserted e
    JOIN profiles p ON p.id = e.profile_id
    JOIN push_subscriptions s ON s.user_id = p.user_id
    WHERE e.kind IN ('message', 'like', 'match')
      AND e.from_profile_id IS NOT NULL AND e.from_profile_id <> e.profile_id
      AND NOT EXISTS (
        SELECT 1 FROM member_presence mp
        WHERE mp.profile_id = e.profile_id AND NOT mp.hidden AND mp.stream_until >= now()
      )
    RETURNING 1
  )
  SELECT string_agg(id::text || ':' || profile_id::text, ',' ORDER BY id), (SELECT count(*) FROM queued) > 0
  INTO r_announce, r_pushed FROM inserted;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "emit_member_events"(events jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  recorded record;
BEGIN
  SELECT * INTO recorded FROM record_member_events(events);
  PERFORM pg_notify('member_events', recorded.r_announce);
  IF recorded.r_pushed THEN
    PERFORM pg_notify('push_jobs', '');
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "send_message"(
  p_site_id int,
  p_sender_user_id int,
  p_sender_profile_id int,
  p_recipient_profile_id int,
  p_kind text,
  p_body text,
  p_cost int,
  p_key text,
  p_ledger_reason text,
  p_free_starts int,
  p_too_long boolean
) RETURNS TABLE (r_outcome text, r_credits int, r_message_id int, r_conversation_id int, r_created_ms float8, r_name text, r_announce text, r_pushed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_low int := least(p_sender_profile_id, p_recipient_profile_id);
  v_high int := greatest(p_sender_profile_id, p_recipient_profile_id);
  v_credits int;
  v_paid boolean;
  v_conversation int;
  v_started_by int;
  v_message int;
  v_created timestamptz;
  v_name text;
  v_profile_status text;
  v_user_status text;
  v_by_sender boolean;
  v_by_recipient boolean;
  v_recorded record;
BEGIN
  SELECT p.name, p.status, u.status,
    EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_profile_id = p_sender_profile_id AND b.blocked_profile_id = p.id),
    EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_profile_id = p.id AND b.blocked_profile_id = p_sender_profile_id)
  INTO v_name, v_profile_status, v_user_status, v_by_sender, v_by_recipient
  FROM profiles p JOIN users u ON u.id = p.user_id
  WHERE p.id = p_recipient_profile_id AND p.site_id = p_site_id AND p.id <> p_sender_profile_id;
  IF NOT FOUND OR v_by_sender THEN
    RETURN QUERY SELECT 'not_found'::text, NULL::int, NULL::int, NULL::int, NULL::float8, NULL::text, NULL::text, NULL::boolean;
    RETURN;
  END IF;
  IF v_by_recipient THEN
    RETURN QUERY SELECT 'blocked_by_member'::text, NULL::int, NULL::int, NULL::int, NULL::float8, v_name, NULL::text, NULL::boolean;
    RETURN;
  END IF;
  IF v_user_status = 'not_confirmed' THEN
    RETURN QUERY SELECT 'recipient_unconfirmed'::text, NULL::int, NULL::int, NULL::int, NULL::float8, v_name, NULL::text, NULL::boolean;
    RETURN;
  END IF;
  IF v_user_status <> 'active' OR v_profile_status <> 'active' THEN
    RETURN QUERY SELECT 'not_found'::text, NULL::int, NULL::int, NULL::int, NULL::float8, NULL::text, NULL::text, NULL::boolean;
    RETURN;
  END IF;
  IF p_too_long THEN
    RETURN QUERY SELECT 'too_long'::text, NULL::int, NULL::int, NULL::int, NULL::float8, NULL::text, NULL::text, NULL::boolean;
    RETURN;
  END IF;

  UPDATE users u SET credits = u.credits - p_cost
  WHERE u.id = p_sender_user_id AND u.credits >= p_cost
  RETURNING u.credits, u.paid_user INTO v_credits, v_paid;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM messages m WHERE m.sender_profile_id = p_sender_profile_id AND m.idempotency_key = p_key) THEN
      RETURN QUERY SELECT 'repeated'::text, NULL::int, NULL::int, NULL::int, NULL::float8, NULL::text, NULL::text, NULL::boolean;
      RETURN;
    END IF;
    SELECT u.credits, u.paid_user INTO v_credits, v_paid FROM users u WHERE u.id = p_sender_user_id;
    IF v_paid IS FALSE
      AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.low_profile_id = v_low AND c.high_profile_id = v_high AND c.started_by IS NOT NULL)
      AND (SELECT count(*) FROM conversations c WHERE c.started_by = p_sender_profile_id) >= p_free_starts THEN
      RETURN QUERY SELECT 'premium_required'::text, NULL::int, NULL::int, NULL::int, NULL::float8, NULL::text, NULL::text, NULL::boolean;
      RETURN;
    END IF;
    RETURN QUERY SELECT 'not_enough_credits'::text, coalesce(v_credits, 0), NULL::int, NULL::int, NULL::float8, NULL::text, NULL::text, NULL::boolean;
    RETURN;
  END IF;

  INSERT INTO conversations AS c (site_id, low_profile_id, high_profile_id)
  VALUES (p_site_id, v_low, v_high)
  ON CONFLICT (low_profile_id, high_profile_id) DO UPDATE SET site_id = excluded.site_id
  RETURNING c.id, c.started_by INTO v_conversation, v_started_by;

  INSERT INTO messages AS m (conversation_id, sender_profile_id, kind, body, credits, idempotency_key)
  VALUES (v_conversation, p_sender_profile_id, p_kind, p_body, p_cost, p_key)
  ON CONFLICT (sender_profile_id, idempotency_key) DO NOTHING
  RETURNING m.id, m.created_at INTO v_message, v_created;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'a message with this idempotency key was sent before' USING ERRCODE = 'RV001';
  END IF;

  IF v_started_by IS NULL AND NOT v_paid
    AND (SELECT count(*) FROM conversations c WHERE c.started_by = p_sender_profile_id) >= p_free_starts THEN
    RAISE EXCEPTION 'a free member''s conversation starts are used up' USING ERRCODE = 'RV002';
  END IF;

  UPDATE conversations c SET last_message_id = v_message, started_by = coalesce(c.started_by, p_sender_profile_id)
  WHERE c.id = v_conversation;
  IF p_cost > 0 THEN
    INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference)
    VALUES (p_sender_user_id, -p_cost, v_credits, p_ledger_reason, 'message:' || v_message);
  END IF;
  INSERT INTO conversation_members AS cm (conversation_id, profile_id, other_profile_id, last_message_id, last_read_message_id, unread_count)
  VALUES (v_conversation, p_sender_profile_id, p_recipient_profile_id, v_message, v_message, 0),
         (v_conversation, p_recipient_profile_id, p_sender_profile_id, v_message, 0, 1)
  ON CONFLICT (conversation_id, profile_id) DO UPDATE SET
    last_message_id = excluded.last_message_id,
    last_read_message_id = greatest(cm.last_read_message_id, excluded.last_read_message_id),
    unread_count = cm.unread_count + excluded.unread_count,
    deleted_at = NULL;

  SELECT * INTO v_recorded FROM record_member_events(jsonb_build_array(
    jsonb_build_object('profile_id', p_recipient_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message),
    jsonb_build_object('profile_id', p_sender_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message)));

  RETURN QUERY SELECT 'sent'::text, v_credits, v_message, v_conversation, (extract(epoch FROM v_created) * 1000)::float8, NULL::text,
    v_recorded.r_announce, v_recorded.r_pushed;
END;
$$;
