-- A send writes two member events, and each event's entry in a btree on created_at was WAL a send wrote only for the
-- prune job and the notification mails' look-back. created_at only grows with the table's order, which is what a BRIN
-- index is for: an insert into a page range not yet summarised writes nothing to it (autosummarize summarises a
-- range once it is full, in autovacuum), and both readers still find their rows (docs/performance.md).
DROP INDEX "member_events_created_idx";--> statement-breakpoint
CREATE INDEX "member_events_created_idx" ON "member_events" USING brin ("created_at") WITH (autosummarize=true);