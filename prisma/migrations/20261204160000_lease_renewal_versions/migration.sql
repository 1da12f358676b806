-- A lease renewal changes nothing of a thread but its lease's expiry, yet it writes a new row version
-- (xmin), which a step's speculative commit checks (`threadVersionCheck`, runtime/store/thread-store.ts).
-- The renewal records the version it moved the row from (`lease_renewed_from`, kept across renewals
-- that follow one another) and the version it left (`lease_renewed_in`, its own transaction id), so
-- the check accepts a copy of the row read before renewals that changed nothing else. Any other write
-- gives the row a version of another transaction, and the pair no longer applies.
-- AlterTable
ALTER TABLE "threads" ADD COLUMN "lease_renewed_from" TEXT,
ADD COLUMN "lease_renewed_in" TEXT;
