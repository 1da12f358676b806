-- Replay batches (docs/live.md "Replay"): one row per "Replay runs" of a project page, so its
-- progress and results are read back from the server (after a reload too). Each replayed root names
-- its batch; `skipped` keeps the runs the batch could not replay, with why.
-- CreateTable
CREATE TABLE "replay_batches" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "from_version" TEXT NOT NULL DEFAULT 'latest',
    "skipped" JSONB NOT NULL DEFAULT '[]',
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "replay_batches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "replay_batches_project_id_created_at_idx" ON "replay_batches"("project_id", "created_at");

-- AddForeignKey
ALTER TABLE "replay_batches" ADD CONSTRAINT "replay_batches_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "thread_replays" ADD COLUMN "batch_id" UUID;

-- CreateIndex
CREATE INDEX "thread_replays_batch_id_idx" ON "thread_replays"("batch_id");
