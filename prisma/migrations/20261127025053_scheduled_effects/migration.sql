-- Scheduled effects (spec Effects; docs/runtime.md "Effects"): one row per state.scheduleEffect call,
-- claimed by the effect runner with a lease (FOR UPDATE SKIP LOCKED on (status, run_at)), retried
-- with back-off, and listed per thread (thread_id, run_at). Rows go with their thread.
-- CreateTable
CREATE TABLE "scheduled_effects" (
    "id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "args" JSONB NOT NULL DEFAULT '{}',
    "run_at" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(6),
    "created_at" BIGINT NOT NULL,
    "started_at" BIGINT,
    "finished_at" BIGINT,

    CONSTRAINT "scheduled_effects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "scheduled_effects_status_run_at_idx" ON "scheduled_effects"("status", "run_at");

-- CreateIndex
CREATE INDEX "scheduled_effects_thread_id_run_at_idx" ON "scheduled_effects"("thread_id", "run_at");

-- AddForeignKey
ALTER TABLE "scheduled_effects" ADD CONSTRAINT "scheduled_effects_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
