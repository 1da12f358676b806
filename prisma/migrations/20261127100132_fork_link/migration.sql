-- The fork link (docs/live.md "Fork and diff"): the thread a fork copy was made from, and the message
-- of it the fork was cut at (null for a copied child). Nullable, no foreign keys, no index.
-- AlterTable
ALTER TABLE "threads" ADD COLUMN     "forked_from_message_id" UUID,
ADD COLUMN     "forked_from_thread_id" UUID;
