-- Replays (docs/runtime.md "Replay"): one row per thread of a replayed tree, naming the thread whose
-- recorded model calls answer its own; the root's row also holds the source's external inputs and
-- how many of them it has posted. `divergence` is set once, at the first call whose request no
-- longer matches the recording (from then on the real model answers that thread).
-- CreateTable
CREATE TABLE "thread_replays" (
    "thread_id" UUID NOT NULL,
    "root_id" UUID NOT NULL,
    "source_thread_id" UUID NOT NULL,
    "from_version" TEXT NOT NULL DEFAULT 'latest',
    "inputs" JSONB NOT NULL DEFAULT '[]',
    "inputs_posted" INTEGER NOT NULL DEFAULT 0,
    "divergence" JSONB,
    "finished_at" BIGINT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "thread_replays_pkey" PRIMARY KEY ("thread_id")
);

-- CreateIndex
CREATE INDEX "thread_replays_root_id_idx" ON "thread_replays"("root_id");

-- CreateIndex
CREATE INDEX "thread_replays_source_thread_id_idx" ON "thread_replays"("source_thread_id");

-- AddForeignKey
ALTER TABLE "thread_replays" ADD CONSTRAINT "thread_replays_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A model call a replay answered from a recording names the recorded call it repeats.
-- AlterTable
ALTER TABLE "model_calls" ADD COLUMN "replayed_from" UUID;
