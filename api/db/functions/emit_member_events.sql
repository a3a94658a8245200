-- Events of every cause but a chat send, inside the cause's transaction (api/events/emit.ts, emitEvents; ADR 020):
-- record_member_events writes them, then a NOTIFY on member_events carries the new ids and one on push_jobs (no
-- payload) wakes the push workers only when a push was queued. A chat send announces after its commit instead
-- (send_message, api/events/announce.ts).
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
