-- Event ids in commit order, cheaper (docs/benchmarks.md, item 11). The deferred trigger still fires
-- once per inserted event, but only its first firing for a root in a transaction does the work: it
-- takes the root's advisory lock and renumbers all of that transaction's events of the root in one
-- statement, in insertion order. The later firings see the transaction-local marker and return.
-- The transaction's own rows are those whose xmin is its xid (the runtime uses no savepoints), from
-- the first firing's row on (ids from the sequence grow within a transaction).
CREATE OR REPLACE FUNCTION "events_order_at_commit"() RETURNS trigger AS $$
DECLARE
  "ordered" TEXT := coalesce(current_setting('tandem.events_ordered', true), '');
  "root" TEXT := NEW."root_id"::text;
BEGIN
  IF position("root" IN "ordered") > 0 THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('tandem.events_ordered', "ordered" || ' ' || "root", true);
  PERFORM pg_advisory_xact_lock(hashtextextended('tandem_events:' || "root", 0));
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

-- Large JSON values (message contents, model requests, event payloads) are compressed with lz4,
-- several times faster than the default pglz, where the server has it (PGlite may not: kept as is).
DO $$
BEGIN
  ALTER TABLE "events" ALTER COLUMN "data" SET COMPRESSION lz4;
  ALTER TABLE "messages" ALTER COLUMN "content" SET COMPRESSION lz4;
  ALTER TABLE "model_calls" ALTER COLUMN "request" SET COMPRESSION lz4;
  ALTER TABLE "model_calls" ALTER COLUMN "response" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  NULL;
END
$$;
