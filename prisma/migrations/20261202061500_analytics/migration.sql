-- Project analytics (docs/observability.md "Dashboard"): what the dashboard's aggregates read, with
-- indexes so a 1,000,000-message project answers in well under 300 ms (docs/benchmarks.md).

-- A model call's project and the agent that made it, written by the call's own INSERT (it reads them
-- from the thread row, so it stays one statement in the step's commit); `ok` says it got an answer.
ALTER TABLE "model_calls" ADD COLUMN "project_id" UUID;
ALTER TABLE "model_calls" ADD COLUMN "agent_name" TEXT;
ALTER TABLE "model_calls" ADD COLUMN "ok" BOOLEAN GENERATED ALWAYS AS ("error" IS NULL) STORED;

UPDATE "model_calls" AS m SET "project_id" = t."project_id", "agent_name" = t."agent_name"
FROM "threads" AS t WHERE t."id" = m."thread_id";

-- Covering: the dashboard's one pass over a project's calls reads the index alone.
CREATE INDEX "model_calls_project_id_created_at_idx" ON "model_calls"("project_id", "created_at")
  INCLUDE ("agent_name", "model_name", "answered_by", "input_tokens", "output_tokens", "cost_usd", "latency_ms", "ok");

-- A tool run's project, written by its INSERT (from the step's thread row), and a covering index:
-- the dashboard's pass over a project's tool runs reads the index alone.
ALTER TABLE "tool_runs" ADD COLUMN "project_id" UUID;
UPDATE "tool_runs" AS r SET "project_id" = t."project_id" FROM "threads" AS t WHERE t."id" = r."thread_id";
CREATE INDEX "tool_runs_project_id_started_at_idx" ON "tool_runs"("project_id", "started_at")
  INCLUDE ("name", "status", "finished_at");

-- One row per run of a thread: from the moment it began working (queued, running or waiting for an
-- approval) to the moment it stopped (threads.finished_at), with how it ended. A trigger writes it
-- in the transaction that ends the run, so no writer of threads.status changes.
-- A new thread that is inserted at work starts its run then (the default; added after the column so
-- existing rows are not rewritten); a thread that starts working again starts a new run (the trigger).
ALTER TABLE "threads" ADD COLUMN "work_started_at" BIGINT;
ALTER TABLE "threads" ALTER COLUMN "work_started_at"
  SET DEFAULT ((extract(epoch FROM clock_timestamp()) * 1000000)::BIGINT);

CREATE TABLE "thread_runs" (
  "id" BIGSERIAL NOT NULL,
  "thread_id" UUID NOT NULL,
  "project_id" UUID NOT NULL,
  "agent_name" TEXT NOT NULL,
  "started_at" BIGINT NOT NULL,
  "finished_at" BIGINT NOT NULL,
  "status" TEXT NOT NULL,
  "stop_reason" TEXT,
  "failure" TEXT,
  CONSTRAINT "thread_runs_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "thread_runs" ADD CONSTRAINT "thread_runs_thread_id_fkey" FOREIGN KEY ("thread_id")
  REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "thread_runs_thread_id_idx" ON "thread_runs"("thread_id");
CREATE INDEX "thread_runs_project_id_started_at_idx" ON "thread_runs"("project_id", "started_at")
  INCLUDE ("finished_at", "agent_name", "status");

-- Threads settled before this table: one run each, from creation to their finish.
INSERT INTO "thread_runs" ("thread_id", "project_id", "agent_name", "started_at", "finished_at", "status", "stop_reason", "failure")
SELECT "id", "project_id", "agent_name", "created_at", "finished_at", "status", "stop_reason", "failure"
FROM "threads" WHERE "finished_at" IS NOT NULL;
UPDATE "threads" SET "work_started_at" = "created_at"
WHERE "status" IN ('queued', 'running', 'waiting_approval');

CREATE FUNCTION "tandem_track_runs"() RETURNS TRIGGER AS $$
BEGIN
  IF NEW."status" IN ('queued', 'running', 'waiting_approval') THEN
    IF OLD."status" NOT IN ('queued', 'running', 'waiting_approval') THEN
      NEW."work_started_at" := (extract(epoch FROM clock_timestamp()) * 1000000)::BIGINT;
    END IF;
  ELSIF OLD."status" IN ('queued', 'running', 'waiting_approval') THEN
    INSERT INTO "thread_runs" ("thread_id", "project_id", "agent_name", "started_at", "finished_at", "status", "stop_reason", "failure")
    VALUES (NEW."id", NEW."project_id", NEW."agent_name", coalesce(OLD."work_started_at", NEW."created_at"),
            NEW."updated_at", NEW."status", NEW."stop_reason", NEW."failure");
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "threads_track_runs"
  BEFORE UPDATE OF "status" ON "threads"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "tandem_track_runs"();
