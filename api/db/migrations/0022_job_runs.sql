CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"instance" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "job_runs_job_due_at_pk" PRIMARY KEY("job","due_at")
);
