-- Live events NOTIFY only roots somebody watches (docs/runtime.md, "Live events"; docs/benchmarks.md
-- item 14). Postgres serialises the commits of every transaction that NOTIFYs (one lock for the
-- whole cluster, held through the commit's WAL flush) and wakes every listening backend of the
-- database: a NOTIFY per step cost 13 % of throughput with nobody listening. An event stream now
-- registers its root here first (under the root's event lock), and the commit that appends events
-- for a root checks for a watcher after taking that lock, with a fresh snapshot (plpgsql, volatile):
-- a registration that committed before sees its NOTIFY; one that waited for the lock commits after
-- the events, which the stream's first read after registering then finds.
-- CreateTable
CREATE TABLE "event_watchers" (
    "root_id" UUID NOT NULL,
    "watcher" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "event_watchers_pkey" PRIMARY KEY ("root_id","watcher")
);

-- CreateIndex
CREATE INDEX "event_watchers_expires_at_idx" ON "event_watchers"("expires_at");

-- A root's events are NOTIFYed when somebody watches the root. The check runs right after the root's
-- event lock is taken, as its own query (a fresh snapshot in a volatile function), so it sees every
-- registration that committed before the lock was granted. Plain assignments instead of PERFORM:
-- plpgsql evaluates them without starting a query (the step commit's cost, docs/benchmarks.md 14).
CREATE OR REPLACE FUNCTION "tandem_order_events"("roots" TEXT[]) RETURNS INTEGER AS $$
DECLARE
  "ordered" TEXT := coalesce(current_setting('tandem.events_ordered', true), '');
  "root" TEXT;
  "taken" INTEGER := 0;
  "ignored" TEXT;
BEGIN
  -- The caller (appendEvents) passes each root once, sorted: every transaction locks in one order.
  FOREACH "root" IN ARRAY "roots" LOOP
    IF position("root" IN "ordered") = 0 THEN
      "ignored" := pg_advisory_xact_lock(hashtextextended('tandem_events:' || "root", 0))::text;
      IF EXISTS (SELECT 1 FROM "event_watchers" WHERE "root_id" = "root"::uuid AND "expires_at" > now()) THEN
        "ignored" := pg_notify('tandem_events', "root")::text;
      END IF;
      "ordered" := "ordered" || ' ' || "root";
      "taken" := "taken" + 1;
    END IF;
  END LOOP;
  IF "taken" > 0 THEN
    "ignored" := set_config('tandem.events_ordered', "ordered", true);
  END IF;
  RETURN "taken";
END
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION "events_order_at_commit"() RETURNS trigger AS $$
DECLARE
  "ordered" TEXT := coalesce(current_setting('tandem.events_ordered', true), '');
  "root" TEXT := NEW."root_id"::text;
  "ignored" TEXT;
BEGIN
  IF position("root" IN "ordered") > 0 THEN
    RETURN NULL;
  END IF;
  "ignored" := set_config('tandem.events_ordered', "ordered" || ' ' || "root", true);
  "ignored" := pg_advisory_xact_lock(hashtextextended('tandem_events:' || "root", 0))::text;
  IF EXISTS (SELECT 1 FROM "event_watchers" WHERE "root_id" = NEW."root_id" AND "expires_at" > now()) THEN
    "ignored" := pg_notify('tandem_events', "root")::text;
  END IF;
  UPDATE "events" AS "event" SET "id" = "renumbered"."new_id"
  FROM (
    SELECT "old_id", nextval('"events_id_seq"'::regclass) AS "new_id"
    FROM (
      SELECT "id" AS "old_id" FROM "events"
      WHERE "root_id" = NEW."root_id" AND "id" >= NEW."id" AND "xmin" = pg_current_xact_id()::xid
      ORDER BY "id"
    ) AS "mine"
  ) AS "renumbered"
  WHERE "event"."id" = "renumbered"."old_id";
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
