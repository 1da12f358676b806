-- When a thread last stopped working (docs/live.md "Durations"), in µs: the `updated_at` of the write
-- that took it out of queued / running / waiting_approval (park, a session's end, a stop, a
-- terminate of a thread at work), null while it works again or before it ever worked. A later write
-- to a settled thread (a terminate or stop of a completed child) leaves it as it was, so a duration
-- shown as `finished_at - created_at` stays the thread's own. A trigger keeps it, like
-- `run_started_at`, so every writer of `threads.status` stays as it is; `finishedAtAfter`
-- (runtime/store/thread-row.ts) computes the same for a step's row that is not read back.
-- AlterTable
ALTER TABLE "threads" ADD COLUMN "finished_at" BIGINT;

-- Threads settled before this column: their last update is the best record there is.
UPDATE "threads" SET "finished_at" = "updated_at"
WHERE "status" NOT IN ('queued', 'running', 'waiting_approval');

CREATE FUNCTION "tandem_track_finish"() RETURNS TRIGGER AS $$
BEGIN
  IF NEW."status" IN ('queued', 'running', 'waiting_approval') THEN
    NEW."finished_at" := NULL;
  ELSIF OLD."status" IN ('queued', 'running', 'waiting_approval') THEN
    NEW."finished_at" := NEW."updated_at";
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "threads_track_finish"
  BEFORE UPDATE OF "status" ON "threads"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "tandem_track_finish"();
