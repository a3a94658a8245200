-- A held message approved by a moderator (api/domain/staff/held-messages.ts; docs/staff.md, contact details in chat):
-- delivered now as send_message.sql delivers one (the conversation, both members' sides, the operator inbox's
-- state, the events), in the moderator's transaction. It answers nothing when the message is not held (decided
-- already): one conditional update decides, so two moderators never deliver it twice. It does not NOTIFY: the api
-- announces r_announce after the commit (api/events/announce.ts).
CREATE OR REPLACE FUNCTION "deliver_held_message"(p_message_id int)
RETURNS TABLE (r_sender int, r_recipient int, r_conversation int, r_announce text, r_pushed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_conversation int;
  v_sender int;
  v_recipient int;
  v_created timestamptz;
  v_newest boolean;
  v_fictional int;
  v_last_answer int;
  v_members int;
  v_recorded record;
BEGIN
  UPDATE messages m SET moderation = NULL WHERE m.id = p_message_id AND m.moderation = 'held'
  RETURNING m.conversation_id, m.sender_profile_id, m.created_at INTO v_conversation, v_sender, v_created;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT CASE WHEN c.low_profile_id = v_sender THEN c.high_profile_id ELSE c.low_profile_id END,
    coalesce(c.last_message_id, 0) < p_message_id
  INTO v_recipient, v_newest
  FROM conversations c WHERE c.id = v_conversation
  FOR UPDATE;

  UPDATE conversations c SET
    last_message_id = CASE WHEN v_newest THEN p_message_id ELSE c.last_message_id END,
    started_by = coalesce(c.started_by, v_sender),
    last_message_at = CASE WHEN v_newest THEN v_created ELSE c.last_message_at END,
    last_from_member = CASE WHEN v_newest THEN c.fictional_profile_id IS DISTINCT FROM v_sender ELSE c.last_from_member END
  WHERE c.id = v_conversation
  RETURNING c.fictional_profile_id, c.last_answer_id INTO v_fictional, v_last_answer;
  IF v_fictional IS NOT NULL AND v_fictional <> v_sender AND v_last_answer IS NOT NULL AND v_last_answer < p_message_id THEN
    UPDATE operator_replies SET member_messages_after = member_messages_after + 1 WHERE message_id = v_last_answer;
  END IF;

  UPDATE conversation_members cm SET
    last_message_id = greatest(cm.last_message_id, p_message_id),
    unread_count = cm.unread_count + CASE WHEN cm.profile_id = v_sender THEN 0 ELSE 1 END,
    deleted_at = NULL
  WHERE cm.conversation_id = v_conversation AND cm.profile_id IN (v_sender, v_recipient);
  GET DIAGNOSTICS v_members = ROW_COUNT;
  IF v_members < 2 THEN
    INSERT INTO conversation_members AS cm (conversation_id, profile_id, other_profile_id, last_message_id, last_read_message_id, unread_count)
    SELECT v_conversation, v.profile_id, v.other_profile_id, p_message_id, v.last_read_message_id, v.unread_count
    FROM (VALUES (v_sender, v_recipient, p_message_id, 0),
                 (v_recipient, v_sender, 0, 1)) AS v(profile_id, other_profile_id, last_read_message_id, unread_count)
    WHERE NOT EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = v_conversation AND m.profile_id = v.profile_id)
    ON CONFLICT (conversation_id, profile_id) DO NOTHING;
  END IF;

  SELECT * INTO v_recorded FROM record_member_events(jsonb_build_array(
    jsonb_build_object('profile_id', v_recipient, 'kind', 'message', 'from_profile_id', v_sender,
                       'conversation_id', v_conversation, 'message_id', p_message_id),
    jsonb_build_object('profile_id', v_sender, 'kind', 'message', 'from_profile_id', v_sender,
                       'conversation_id', v_conversation, 'message_id', p_message_id)));
  RETURN QUERY SELECT v_sender, v_recipient, v_conversation, v_recorded.r_announce, v_recorded.r_pushed;
END;
$$;
