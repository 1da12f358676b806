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
  FOR "root" IN SELECT DISTINCT "value" FROM unnest("roots") AS "value" ORDER BY "value" LOOP
    IF position("root" IN "ordered") = 0 THEN
      PERFORM pg_advisory_xact_lock(hashtextextended('tandem_events:' || "root", 0));
      "ordered" := "ordered" || ' ' || "root";
      "taken" := "taken" + 1;
    END IF;
  END LOOP;
  PERFORM set_config('tandem.events_ordered', "ordered", true);
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
