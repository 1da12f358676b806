-- One-statement step commits (docs/benchmarks.md item 12).
--
-- Event ids in commit order without renumbering, for a transaction that is one statement (the
-- runtime's combined step commits, docs/benchmarks.md item 12). `tandem_order_events` takes the
-- roots' advisory locks (in a stable order) before the statement's events get their ids and marks
-- the roots for the transaction: a later-committing transaction of the same root waits for the
-- lock and so gets higher ids. The commit-time trigger is then not even queued for a marked root
-- (WHEN is evaluated as the row is inserted). Roots not marked keep the commit-time renumbering.
CREATE OR REPLACE FUNCTION "tandem_order_events"("roots" TEXT[]) RETURNS INTEGER AS $$
DECLARE
  "ordered" TEXT := coalesce(current_setting('tandem.events_ordered', true), '');
  "root" TEXT;
  "taken" INTEGER := 0;
BEGIN
  -- The caller (appendEvents) passes each root once, sorted: every transaction locks in one order.
  FOREACH "root" IN ARRAY "roots" LOOP
    IF position("root" IN "ordered") = 0 THEN
      PERFORM pg_advisory_xact_lock(hashtextextended('tandem_events:' || "root", 0));
      "ordered" := "ordered" || ' ' || "root";
      "taken" := "taken" + 1;
    END IF;
  END LOOP;
  IF "taken" > 0 THEN
    PERFORM set_config('tandem.events_ordered', "ordered", true);
  END IF;
  RETURN "taken";
END
$$ LANGUAGE plpgsql;

DROP TRIGGER "events_order_at_commit" ON "events";
CREATE CONSTRAINT TRIGGER "events_order_at_commit"
  AFTER INSERT ON "events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN (position(NEW."root_id"::text IN coalesce(current_setting('tandem.events_ordered', true), '')) = 0)
  EXECUTE FUNCTION "events_order_at_commit"();

-- Whether a thread has input waiting is read with every step's thread row: probe it by thread
-- (the (consumed_at, created_at) index would scan every thread's unconsumed input).
CREATE INDEX "inbox_items_thread_id_consumed_at_idx" ON "inbox_items"("thread_id", "consumed_at");

-- The wait tracking trigger runs only when what it derives from changed: a step's thread update
-- names status and runnable without changing them, and the plpgsql call was a measurable part of
-- every step (docs/benchmarks.md item 12). Inserts always run it.
DROP TRIGGER "threads_track_waits" ON "threads";
CREATE TRIGGER "threads_track_waits_on_insert"
  BEFORE INSERT ON "threads"
  FOR EACH ROW EXECUTE FUNCTION "tandem_track_waits"();
CREATE TRIGGER "threads_track_waits"
  BEFORE UPDATE OF "runnable", "lease_owner", "status" ON "threads"
  FOR EACH ROW
  WHEN (OLD."runnable" IS DISTINCT FROM NEW."runnable"
     OR OLD."lease_owner" IS DISTINCT FROM NEW."lease_owner"
     OR OLD."status" IS DISTINCT FROM NEW."status"
     OR OLD."queued_since" IS DISTINCT FROM NEW."queued_since"
     OR OLD."run_started_at" IS DISTINCT FROM NEW."run_started_at")
  EXECUTE FUNCTION "tandem_track_waits"();

-- Logged JSON that is only ever written whole and read whole (event payloads, model requests and
-- responses) is stored as json, not jsonb: Postgres then checks it instead of building a binary
-- document from it, on every step (docs/benchmarks.md item 12). lz4 as before where available.
ALTER TABLE "events" ALTER COLUMN "data" SET DATA TYPE JSON USING "data"::JSON;
ALTER TABLE "model_calls" ALTER COLUMN "request" SET DATA TYPE JSON USING "request"::JSON;
ALTER TABLE "model_calls" ALTER COLUMN "response" SET DATA TYPE JSON USING "response"::JSON;
DO $$
BEGIN
  ALTER TABLE "events" ALTER COLUMN "data" SET COMPRESSION lz4;
  ALTER TABLE "model_calls" ALTER COLUMN "request" SET COMPRESSION lz4;
  ALTER TABLE "model_calls" ALTER COLUMN "response" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  NULL;
END
$$;
