-- The operator inbox's state on the conversations with an id above p_after_id (api/db/schema/chat.ts): which side
-- is the site-run profile, when the last message was sent, whether by the member, whether the site-run side has
-- written, and its last message. For conversations written in bulk (migration 0032, the demo data in
-- api/db/seed-chat.ts, the data generator); send_message keeps it for every send.
CREATE OR REPLACE FUNCTION "conversation_inbox_backfill"(p_after_id int) RETURNS void
LANGUAGE sql AS $$
  UPDATE conversations c SET
    fictional_profile_id = s.fictional_id,
    last_message_at = s.last_at,
    last_from_member = s.last_sender IS DISTINCT FROM s.fictional_id,
    answered = s.last_answer IS NOT NULL,
    last_answer_id = s.last_answer
  FROM (
    SELECT c2.id, f.fictional_id, lm.created_at AS last_at, lm.sender_profile_id AS last_sender,
           (SELECT max(m.id) FROM messages m WHERE m.conversation_id = c2.id AND m.sender_profile_id = f.fictional_id) AS last_answer
      FROM conversations c2
      JOIN profiles lp ON lp.id = c2.low_profile_id
      JOIN profiles hp ON hp.id = c2.high_profile_id
      CROSS JOIN LATERAL (SELECT CASE WHEN lp.fictional <> hp.fictional THEN CASE WHEN lp.fictional THEN lp.id ELSE hp.id END END AS fictional_id) f
      LEFT JOIN messages lm ON lm.id = c2.last_message_id
     WHERE c2.id > p_after_id
  ) s
  WHERE c.id = s.id;
$$;
