-- ADR 023: client limits' counts are not worth a disk write each. An unlogged table writes no WAL, so an attempt's
-- count commits without waiting for the disk. After a crash of PostgreSQL the table is emptied, and a standby has no
-- copy of it: every count starts again, which a limit can bear (a count lives an hour at most).
ALTER TABLE "rate_limits" SET UNLOGGED;
