-- The message_seq at which the thread's history was last rewritten in place by `bumpMessageSeq`,
-- which every change that can alter which messages a list shows goes through (a message's silent
-- flag, a message deleted). Messages are otherwise only appended, numbered above message_seq, so a
-- count of a thread's messages made when message_seq was S (and this was at most S) stays right for
-- every message numbered up to S: a long thread's message list is counted from there, not from its
-- first message (runtime/store/message-totals.ts).
-- AlterTable
ALTER TABLE "threads" ADD COLUMN "history_rewritten_seq" INTEGER NOT NULL DEFAULT 0;

-- A page of a thread's message list in seq order, walked along the (thread_id, seq) key so that it
-- reads offset + limit messages whatever the thread's length and whatever the statistics say:
-- without statistics on messages (a fresh or embedded database, where nothing analyzes the table) the
-- planner fetched every message of the thread and sorted them (the first page of a 3,000-message
-- thread took ~10× that of a short one); with them, the count below chose to scan the whole table.
-- Sequential and bitmap scans and sorts are off for the functions' own statements only.
CREATE FUNCTION "tandem_message_page"(
  "thread" UUID, "include_silent" BOOLEAN, "max_depth" INTEGER, "page_limit" BIGINT, "page_offset" BIGINT
) RETURNS SETOF "messages" AS $$
  SELECT * FROM "messages"
  WHERE "thread_id" = "thread" AND ("include_silent" OR NOT "silent") AND "depth" <= "max_depth"
  ORDER BY "seq" LIMIT "page_limit" OFFSET "page_offset"
$$ LANGUAGE sql STABLE SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off;

-- The thread's message_seq with the number of its messages matching a list's filter numbered above
-- `counted_seq` when a count made at that message_seq still holds (see above), else above 0: the
-- count a process remembers is brought up to date by counting only what came after it
-- (runtime/store/message-totals.ts). Walked along the (thread_id, seq) key, as the page is.
CREATE FUNCTION "tandem_message_total"(
  "thread" UUID, "include_silent" BOOLEAN, "max_depth" INTEGER, "counted_seq" INTEGER
) RETURNS TABLE ("message_seq" INTEGER, "from_seq" INTEGER, "counted" INTEGER, "top" INTEGER) AS $$
  WITH "bound" AS (
    SELECT t."message_seq",
      CASE WHEN t."history_rewritten_seq" <= "counted_seq" AND "counted_seq" <= t."message_seq"
        THEN "counted_seq" ELSE 0 END AS "from_seq"
    FROM "threads" t WHERE t."id" = "thread"
  )
  SELECT b."message_seq", b."from_seq", c."counted", c."top"
  FROM "bound" b, LATERAL (
    SELECT count(*)::INTEGER AS "counted", coalesce(max(m."seq"), 0)::INTEGER AS "top"
    FROM "messages" m
    WHERE m."thread_id" = "thread" AND m."seq" > b."from_seq"
      AND ("include_silent" OR NOT m."silent") AND m."depth" <= "max_depth"
  ) c
$$ LANGUAGE sql STABLE SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off;
