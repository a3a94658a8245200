-- The audit log is append-only (docs/staff.md, The audit log): the trigger function behind audit_log_no_change
-- (BEFORE UPDATE OR DELETE, each row) and audit_log_no_truncate (BEFORE TRUNCATE), which migration 0016_staff.sql
-- creates. Whoever asks, a change to an entry raises.
CREATE OR REPLACE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
