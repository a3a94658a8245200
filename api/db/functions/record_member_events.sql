-- The writing half of emitting events (api/events/emit.ts, emitEvents; ADR 020 and ADR 023), without a NOTIFY.
-- `events` is a JSON array of {profile_id, kind, from_profile_id, conversation_id, message_id}. Event ids commit in
-- id order per recipient: one transaction-long advisory lock per recipient (key 0x6d657674 and the profile id),
-- taken in profile order, before the ids are. A message, like or match from another member to a member away from
-- the site queues a web push per subscription (push_jobs; away as isAway in api/events/hub.ts). Answers r_announce,
-- the new "event id:profile id" pairs, comma-separated (the bus's payload), and r_pushed, whether a push was queued.
-- Called by emit_member_events and by send_message.
CREATE OR REPLACE FUNCTION "record_member_events"(events jsonb, OUT r_announce text, OUT r_pushed boolean) LANGUAGE plpgsql AS $$
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
