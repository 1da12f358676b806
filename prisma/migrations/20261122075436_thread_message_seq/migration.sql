-- AlterTable
ALTER TABLE "threads" ADD COLUMN     "message_seq" INTEGER NOT NULL DEFAULT 0;

-- Existing threads: continue after their last message.
UPDATE "threads" SET "message_seq" = COALESCE((SELECT MAX("seq") FROM "messages" WHERE "messages"."thread_id" = "threads"."id"), 0);
