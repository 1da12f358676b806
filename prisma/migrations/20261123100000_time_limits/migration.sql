-- Time limits (docs/deploy.md): when a thread started waiting for a scheduler (runnable, no lease
-- owner) and when its current run began (status became `running`), both in µs. A trigger keeps them,
-- so every writer of `threads` (step commits, spawns, wake-ups, lease hand-backs) stays as it is.
ALTER TABLE "threads" ADD COLUMN "queued_since" BIGINT;
ALTER TABLE "threads" ADD COLUMN "run_started_at" BIGINT;

CREATE FUNCTION "tandem_track_waits"() RETURNS TRIGGER AS $$
DECLARE
  "now_us" BIGINT := (extract(epoch FROM clock_timestamp()) * 1000000)::BIGINT;
BEGIN
  IF NEW."runnable" AND NEW."lease_owner" IS NULL THEN
    IF TG_OP = 'INSERT' OR NOT OLD."runnable" OR OLD."lease_owner" IS NOT NULL OR OLD."queued_since" IS NULL THEN
      NEW."queued_since" := "now_us";
    END IF;
  ELSE
    NEW."queued_since" := NULL;
  END IF;
  IF NEW."status" = 'running' THEN
    IF TG_OP = 'INSERT' OR OLD."status" <> 'running' OR OLD."run_started_at" IS NULL THEN
      NEW."run_started_at" := "now_us";
    END IF;
  ELSE
    NEW."run_started_at" := NULL;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "threads_track_waits"
  BEFORE INSERT OR UPDATE OF "runnable", "lease_owner", "status" ON "threads"
  FOR EACH ROW EXECUTE FUNCTION "tandem_track_waits"();

-- The sweeper looks for threads waiting longer than TANDEM_MAX_QUEUED_MS.
CREATE INDEX "threads_queued_since_idx" ON "threads"("queued_since") WHERE "queued_since" IS NOT NULL;
