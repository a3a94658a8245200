-- Each operator reply's member messages after it (before the profile's next message), for the conversations with an
-- id above p_after_conversation_id: one pass over their messages, each given the latest reply before it (the operator
-- figures, docs/staff.md). For messages written in bulk; send_message counts them from then on.
CREATE OR REPLACE FUNCTION "operator_follow_backfill"(p_after_conversation_id int) RETURNS void
LANGUAGE sql AS $$
  UPDATE operator_replies r SET member_messages_after = f.n
  FROM (
    SELECT seg.reply_id, count(*) FILTER (WHERE NOT seg.from_profile)::int AS n
      FROM (SELECT m.sender_profile_id = c.fictional_profile_id AS from_profile,
                   max(CASE WHEN m.sender_profile_id = c.fictional_profile_id THEN m.id END) OVER (PARTITION BY m.conversation_id ORDER BY m.id) AS reply_id
              FROM messages m JOIN conversations c ON c.id = m.conversation_id
             WHERE c.fictional_profile_id IS NOT NULL AND c.id > p_after_conversation_id) seg
     WHERE seg.reply_id IS NOT NULL
     GROUP BY seg.reply_id
  ) f
  WHERE r.message_id = f.reply_id;
$$;
