-- Dashboard rollups (docs/observability.md "What the database records, and how it stays fast"): the
-- project's model calls and tool runs summed per closed hour and per closed day, per agent, model
-- and tool, with latency bins (and, for the totals, the period's exact p50/p95), so a 90-day view
-- reads ~100 rows per day instead of every call. The raw rows stay the truth: a rollup is recomputed
-- from them whenever a row of its period is inserted or deleted (also long after the period closed).
-- Plain SQL, no extension: the same file runs on PGlite.

CREATE TABLE "analytics_rollups" (
    "project_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "dim" TEXT NOT NULL,
    "start" BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "input_tokens" BIGINT NOT NULL,
    "output_tokens" BIGINT NOT NULL,
    "cost_usd" DOUBLE PRECISION NOT NULL,
    "errors" INTEGER NOT NULL,
    "p50" DOUBLE PRECISION,
    "p95" DOUBLE PRECISION,
    "bins" INTEGER[],
    "counts" INTEGER[],

    CONSTRAINT "analytics_rollups_pkey" PRIMARY KEY ("project_id","source","grain","dim","start","key")
);
ALTER TABLE "analytics_rollups" ADD CONSTRAINT "analytics_rollups_project_id_fkey" FOREIGN KEY ("project_id")
  REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Append-only (no unique key, so concurrent step commits never wait on each other here): the roll-up
-- deletes the rows it saw and recomputes their periods; a row committed after that stays for the next.
CREATE TABLE "analytics_pending" (
    "id" BIGSERIAL NOT NULL,
    "project_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "start" BIGINT NOT NULL,

    CONSTRAINT "analytics_pending_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "analytics_pending_project_id_start_idx" ON "analytics_pending"("project_id", "start");

-- One statement-level trigger per table and event: one pending row per (project, hour) a statement
-- touched (a step's commit: one; a bulk insert of 400,000 calls over 90 days: 2,160).
CREATE FUNCTION "tandem_analytics_calls_changed"() RETURNS TRIGGER AS $$
BEGIN
  INSERT INTO "analytics_pending" ("project_id", "source", "grain", "start")
  SELECT DISTINCT "project_id", 'call', 'hour', ("created_at" / 3600000000) * 3600000000
    FROM "changed" WHERE "project_id" IS NOT NULL;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION "tandem_analytics_tools_changed"() RETURNS TRIGGER AS $$
BEGIN
  INSERT INTO "analytics_pending" ("project_id", "source", "grain", "start")
  SELECT DISTINCT "project_id", 'tool', 'hour', ("started_at" / 3600000000) * 3600000000
    FROM "changed" WHERE "project_id" IS NOT NULL;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "model_calls_analytics_insert" AFTER INSERT ON "model_calls"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "tandem_analytics_calls_changed"();
CREATE TRIGGER "model_calls_analytics_delete" AFTER DELETE ON "model_calls"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "tandem_analytics_calls_changed"();
CREATE TRIGGER "tool_runs_analytics_insert" AFTER INSERT ON "tool_runs"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "tandem_analytics_tools_changed"();
CREATE TRIGGER "tool_runs_analytics_delete" AFTER DELETE ON "tool_runs"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "tandem_analytics_tools_changed"();

-- Rows written before this migration: their hours are pending (the first dashboard read rolls them up).
INSERT INTO "analytics_pending" ("project_id", "source", "grain", "start")
SELECT DISTINCT "project_id", 'call', 'hour', ("created_at" / 3600000000) * 3600000000
  FROM "model_calls" WHERE "project_id" IS NOT NULL;
INSERT INTO "analytics_pending" ("project_id", "source", "grain", "start")
SELECT DISTINCT "project_id", 'tool', 'hour', ("started_at" / 3600000000) * 3600000000
  FROM "tool_runs" WHERE "project_id" IS NOT NULL;
