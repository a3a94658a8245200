-- A chat send in one statement (api/domain/chat.ts, sendMessage; ADR 020, ADR 023): the recipient's checks (a
-- member of the site other than the sender, no block either way, confirmed and active), then the text's length
-- (p_too_long, judged by the caller so that the refusals keep their order), each answered as r_outcome before
-- anything is written, with the recipient's name in r_name where the answer shows it; then the conditional charge,
-- the conversation (locked with SELECT ... FOR UPDATE, made only when the pair has none), the message (a key sent
-- before fails with 23505, which the api answers as the repeated send), the events through record_member_events,
-- and the operator inbox's state of the conversation (docs/staff.md, The operator inbox). It does not NOTIFY: it
-- answers r_announce and r_pushed, and the api announces after the commit (api/events/announce.ts).
CREATE OR REPLACE FUNCTION "send_message"(
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
  v_members int;
  v_fictional int;
  v_last_answer int;
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

  -- The pair's conversation, locked for this send: a lock alone (an upsert would write a row version only to lock it).
  SELECT c.id, c.started_by INTO v_conversation, v_started_by
  FROM conversations c WHERE c.low_profile_id = v_low AND c.high_profile_id = v_high
  FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO conversations AS c (site_id, low_profile_id, high_profile_id, fictional_profile_id)
    SELECT p_site_id, v_low, v_high, CASE WHEN lp.fictional <> hp.fictional THEN CASE WHEN lp.fictional THEN lp.id ELSE hp.id END END
    FROM profiles lp, profiles hp WHERE lp.id = v_low AND hp.id = v_high
    ON CONFLICT (low_profile_id, high_profile_id) DO UPDATE SET site_id = excluded.site_id
    RETURNING c.id, c.started_by INTO v_conversation, v_started_by;
  END IF;

  -- A key sent before fails here with unique_violation (23505) and undoes the send, charge included; the api answers
  -- with the first message (sendMessage in api/domain/chat.ts). A plain insert: ON CONFLICT's speculative insertion
  -- cost a WAL record more on every send, for a case that is rare.
  INSERT INTO messages AS m (conversation_id, sender_profile_id, kind, body, credits, idempotency_key)
  VALUES (v_conversation, p_sender_profile_id, p_kind, p_body, p_cost, p_key)
  RETURNING m.id, m.created_at INTO v_message, v_created;

  IF v_started_by IS NULL AND NOT v_paid
    AND (SELECT count(*) FROM conversations c WHERE c.started_by = p_sender_profile_id) >= p_free_starts THEN
    RAISE EXCEPTION 'a free member''s conversation starts are used up' USING ERRCODE = 'RV002';
  END IF;

  UPDATE conversations c SET last_message_id = v_message, started_by = coalesce(c.started_by, p_sender_profile_id),
    last_message_at = v_created,
    last_from_member = c.fictional_profile_id IS DISTINCT FROM p_sender_profile_id,
    answered = c.answered OR coalesce(c.fictional_profile_id = p_sender_profile_id, false),
    last_answer_id = CASE WHEN c.fictional_profile_id = p_sender_profile_id THEN v_message ELSE c.last_answer_id END
  WHERE c.id = v_conversation
  RETURNING c.fictional_profile_id, c.last_answer_id INTO v_fictional, v_last_answer;
  -- The member writes after an operator's reply: one more message that reply brought (the operators' figures).
  IF v_fictional IS NOT NULL AND v_fictional <> p_sender_profile_id AND v_last_answer IS NOT NULL THEN
    UPDATE operator_replies SET member_messages_after = member_messages_after + 1 WHERE message_id = v_last_answer;
  END IF;
  IF p_cost > 0 THEN
    INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference)
    VALUES (p_sender_user_id, -p_cost, v_credits, p_ledger_reason, 'message:' || v_message);
  END IF;
  -- Both members' rows: updated where they are (no upsert, which locks a row before it updates it), made where not.
  -- No other send of this pair runs meanwhile (the conversation's lock above); the insert's ON CONFLICT is for safety.
  UPDATE conversation_members cm SET
    last_message_id = v_message,
    last_read_message_id = CASE WHEN cm.profile_id = p_sender_profile_id THEN greatest(cm.last_read_message_id, v_message) ELSE cm.last_read_message_id END,
    unread_count = cm.unread_count + CASE WHEN cm.profile_id = p_sender_profile_id THEN 0 ELSE 1 END,
    deleted_at = NULL
  WHERE cm.conversation_id = v_conversation AND cm.profile_id IN (p_sender_profile_id, p_recipient_profile_id);
  GET DIAGNOSTICS v_members = ROW_COUNT;
  IF v_members < 2 THEN
    INSERT INTO conversation_members AS cm (conversation_id, profile_id, other_profile_id, last_message_id, last_read_message_id, unread_count)
    SELECT v_conversation, v.profile_id, v.other_profile_id, v_message, v.last_read_message_id, v.unread_count
    FROM (VALUES (p_sender_profile_id, p_recipient_profile_id, v_message, 0),
                 (p_recipient_profile_id, p_sender_profile_id, 0, 1)) AS v(profile_id, other_profile_id, last_read_message_id, unread_count)
    WHERE NOT EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = v_conversation AND m.profile_id = v.profile_id)
    ON CONFLICT (conversation_id, profile_id) DO UPDATE SET
      last_message_id = excluded.last_message_id,
      last_read_message_id = greatest(cm.last_read_message_id, excluded.last_read_message_id),
      unread_count = cm.unread_count + excluded.unread_count,
      deleted_at = NULL;
  END IF;

  SELECT * INTO v_recorded FROM record_member_events(jsonb_build_array(
    jsonb_build_object('profile_id', p_recipient_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message),
    jsonb_build_object('profile_id', p_sender_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message)));

  RETURN QUERY SELECT 'sent'::text, v_credits, v_message, v_conversation, (extract(epoch FROM v_created) * 1000)::float8, NULL::text,
    v_recorded.r_announce, v_recorded.r_pushed;
END;
$$;
--> statement-breakpoint
-- The first send_message (ten parameters, without p_too_long, no recipient checks, NOTIFYs inside the transaction):
-- nothing in this version calls it. It stays for api instances of the previous version while an upgrade rolls
-- (docs/operations.md, Upgrades) until a migration drops it.
CREATE OR REPLACE FUNCTION "send_message"(
  p_site_id int,
  p_sender_user_id int,
  p_sender_profile_id int,
  p_recipient_profile_id int,
  p_kind text,
  p_body text,
  p_cost int,
  p_key text,
  p_ledger_reason text,
  p_free_starts int
) RETURNS TABLE (r_outcome text, r_credits int, r_message_id int, r_conversation_id int, r_created_ms float8)
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
BEGIN
  UPDATE users u SET credits = u.credits - p_cost
  WHERE u.id = p_sender_user_id AND u.credits >= p_cost
  RETURNING u.credits, u.paid_user INTO v_credits, v_paid;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM messages m WHERE m.sender_profile_id = p_sender_profile_id AND m.idempotency_key = p_key) THEN
      RETURN QUERY SELECT 'repeated'::text, NULL::int, NULL::int, NULL::int, NULL::float8;
      RETURN;
    END IF;
    SELECT u.credits, u.paid_user INTO v_credits, v_paid FROM users u WHERE u.id = p_sender_user_id;
    IF v_paid IS FALSE
      AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.low_profile_id = v_low AND c.high_profile_id = v_high AND c.started_by IS NOT NULL)
      AND (SELECT count(*) FROM conversations c WHERE c.started_by = p_sender_profile_id) >= p_free_starts THEN
      RETURN QUERY SELECT 'premium_required'::text, NULL::int, NULL::int, NULL::int, NULL::float8;
      RETURN;
    END IF;
    RETURN QUERY SELECT 'not_enough_credits'::text, coalesce(v_credits, 0), NULL::int, NULL::int, NULL::float8;
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

  PERFORM emit_member_events(jsonb_build_array(
    jsonb_build_object('profile_id', p_recipient_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message),
    jsonb_build_object('profile_id', p_sender_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message)));

  RETURN QUERY SELECT 'sent'::text, v_credits, v_message, v_conversation, (extract(epoch FROM v_created) * 1000)::float8;
END;
$$;
--> statement-breakpoint
-- send_message with p_hold (api/domain/chat.ts, sendMessage; docs/staff.md, contact details in chat): the same send,
-- and with p_hold the message is stored held for a moderator: paid and kept like any message, but only the sender's
-- side of the conversation shows it (and hears its event); the conversation, the recipient's side and the inbox's
-- state change when a moderator approves it (deliver_held_message.sql), never when it is rejected. The eleven-
-- parameter send_message above stays for instances of the previous version while an upgrade rolls.
CREATE OR REPLACE FUNCTION "send_message"(
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
  p_too_long boolean,
  p_hold boolean
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
  v_members int;
  v_fictional int;
  v_last_answer int;
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

  -- The pair's conversation, locked for this send: a lock alone (an upsert would write a row version only to lock it).
  SELECT c.id, c.started_by INTO v_conversation, v_started_by
  FROM conversations c WHERE c.low_profile_id = v_low AND c.high_profile_id = v_high
  FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO conversations AS c (site_id, low_profile_id, high_profile_id, fictional_profile_id)
    SELECT p_site_id, v_low, v_high, CASE WHEN lp.fictional <> hp.fictional THEN CASE WHEN lp.fictional THEN lp.id ELSE hp.id END END
    FROM profiles lp, profiles hp WHERE lp.id = v_low AND hp.id = v_high
    ON CONFLICT (low_profile_id, high_profile_id) DO UPDATE SET site_id = excluded.site_id
    RETURNING c.id, c.started_by INTO v_conversation, v_started_by;
  END IF;

  -- A key sent before fails here with unique_violation (23505) and undoes the send, charge included; the api answers
  -- with the first message (sendMessage in api/domain/chat.ts). A plain insert: ON CONFLICT's speculative insertion
  -- cost a WAL record more on every send, for a case that is rare.
  INSERT INTO messages AS m (conversation_id, sender_profile_id, kind, body, credits, idempotency_key, moderation)
  VALUES (v_conversation, p_sender_profile_id, p_kind, p_body, p_cost, p_key, CASE WHEN p_hold THEN 'held' END)
  RETURNING m.id, m.created_at INTO v_message, v_created;

  IF v_started_by IS NULL AND NOT v_paid
    AND (SELECT count(*) FROM conversations c WHERE c.started_by = p_sender_profile_id) >= p_free_starts THEN
    RAISE EXCEPTION 'a free member''s conversation starts are used up' USING ERRCODE = 'RV002';
  END IF;

  -- Held for a moderator (docs/staff.md, contact details in chat): paid like any message, but only the sender's side
  -- shows it; the conversation, the recipient's side and the inbox's state change when it is approved
  -- (api/db/functions/deliver_held_message.sql), never when it is rejected.
  IF p_hold THEN
    IF p_cost > 0 THEN
      INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference)
      VALUES (p_sender_user_id, -p_cost, v_credits, p_ledger_reason, 'message:' || v_message);
    END IF;
    UPDATE conversation_members cm SET last_message_id = greatest(cm.last_message_id, v_message),
      last_read_message_id = greatest(cm.last_read_message_id, v_message), deleted_at = NULL
    WHERE cm.conversation_id = v_conversation AND cm.profile_id = p_sender_profile_id;
    IF NOT FOUND THEN
      INSERT INTO conversation_members (conversation_id, profile_id, other_profile_id, last_message_id, last_read_message_id, unread_count)
      VALUES (v_conversation, p_sender_profile_id, p_recipient_profile_id, v_message, v_message, 0)
      ON CONFLICT (conversation_id, profile_id) DO NOTHING;
    END IF;
    SELECT * INTO v_recorded FROM record_member_events(jsonb_build_array(
      jsonb_build_object('profile_id', p_sender_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                         'conversation_id', v_conversation, 'message_id', v_message)));
    RETURN QUERY SELECT 'held'::text, v_credits, v_message, v_conversation, (extract(epoch FROM v_created) * 1000)::float8, NULL::text,
      v_recorded.r_announce, v_recorded.r_pushed;
    RETURN;
  END IF;

  UPDATE conversations c SET last_message_id = v_message, started_by = coalesce(c.started_by, p_sender_profile_id),
    last_message_at = v_created,
    last_from_member = c.fictional_profile_id IS DISTINCT FROM p_sender_profile_id,
    answered = c.answered OR coalesce(c.fictional_profile_id = p_sender_profile_id, false),
    last_answer_id = CASE WHEN c.fictional_profile_id = p_sender_profile_id THEN v_message ELSE c.last_answer_id END
  WHERE c.id = v_conversation
  RETURNING c.fictional_profile_id, c.last_answer_id INTO v_fictional, v_last_answer;
  -- The member writes after an operator's reply: one more message that reply brought (the operators' figures).
  IF v_fictional IS NOT NULL AND v_fictional <> p_sender_profile_id AND v_last_answer IS NOT NULL THEN
    UPDATE operator_replies SET member_messages_after = member_messages_after + 1 WHERE message_id = v_last_answer;
  END IF;
  IF p_cost > 0 THEN
    INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference)
    VALUES (p_sender_user_id, -p_cost, v_credits, p_ledger_reason, 'message:' || v_message);
  END IF;
  -- Both members' rows: updated where they are (no upsert, which locks a row before it updates it), made where not.
  -- No other send of this pair runs meanwhile (the conversation's lock above); the insert's ON CONFLICT is for safety.
  UPDATE conversation_members cm SET
    last_message_id = v_message,
    last_read_message_id = CASE WHEN cm.profile_id = p_sender_profile_id THEN greatest(cm.last_read_message_id, v_message) ELSE cm.last_read_message_id END,
    unread_count = cm.unread_count + CASE WHEN cm.profile_id = p_sender_profile_id THEN 0 ELSE 1 END,
    deleted_at = NULL
  WHERE cm.conversation_id = v_conversation AND cm.profile_id IN (p_sender_profile_id, p_recipient_profile_id);
  GET DIAGNOSTICS v_members = ROW_COUNT;
  IF v_members < 2 THEN
    INSERT INTO conversation_members AS cm (conversation_id, profile_id, other_profile_id, last_message_id, last_read_message_id, unread_count)
    SELECT v_conversation, v.profile_id, v.other_profile_id, v_message, v.last_read_message_id, v.unread_count
    FROM (VALUES (p_sender_profile_id, p_recipient_profile_id, v_message, 0),
                 (p_recipient_profile_id, p_sender_profile_id, 0, 1)) AS v(profile_id, other_profile_id, last_read_message_id, unread_count)
    WHERE NOT EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = v_conversation AND m.profile_id = v.profile_id)
    ON CONFLICT (conversation_id, profile_id) DO UPDATE SET
      last_message_id = excluded.last_message_id,
      last_read_message_id = greatest(cm.last_read_message_id, excluded.last_read_message_id),
      unread_count = cm.unread_count + excluded.unread_count,
      deleted_at = NULL;
  END IF;

  SELECT * INTO v_recorded FROM record_member_events(jsonb_build_array(
    jsonb_build_object('profile_id', p_recipient_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message),
    jsonb_build_object('profile_id', p_sender_profile_id, 'kind', 'message', 'from_profile_id', p_sender_profile_id,
                       'conversation_id', v_conversation, 'message_id', v_message)));

  RETURN QUERY SELECT 'sent'::text, v_credits, v_message, v_conversation, (extract(epoch FROM v_created) * 1000)::float8, NULL::text,
    v_recorded.r_announce, v_recorded.r_pushed;
END;
$$;
