-- DropForeignKey
ALTER TABLE "threads" DROP CONSTRAINT "threads_parent_id_fkey";

-- CreateTable
CREATE TABLE "subagents" (
    "child_id" UUID NOT NULL,
    "parent_id" UUID NOT NULL,
    "tool_name" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT NOT NULL DEFAULT '',
    "blocking" BOOLEAN NOT NULL,
    "resumable" BOOLEAN NOT NULL,
    "receives_messages" TEXT,
    "parent_communication" TEXT NOT NULL DEFAULT 'implicit',
    "spawn_call_id" TEXT NOT NULL,
    "spawn_group_id" TEXT,
    "status" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "subagents_pkey" PRIMARY KEY ("child_id")
);

-- CreateTable
CREATE TABLE "subagent_invocations" (
    "id" UUID NOT NULL,
    "child_id" UUID NOT NULL,
    "parent_id" UUID NOT NULL,
    "call_id" TEXT NOT NULL,
    "blocking" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "result" TEXT,
    "attachments" JSONB NOT NULL DEFAULT '[]',
    "created_at" BIGINT NOT NULL,
    "finished_at" BIGINT,

    CONSTRAINT "subagent_invocations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subagent_env_requests" (
    "id" UUID NOT NULL,
    "parent_id" UUID NOT NULL,
    "tool_name" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "required" JSONB NOT NULL,
    "missing" JSONB NOT NULL,
    "child_id" UUID,
    "created_at" BIGINT NOT NULL,
    "resolved_at" BIGINT,

    CONSTRAINT "subagent_env_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subagents_parent_id_tool_name_idx" ON "subagents"("parent_id", "tool_name");

-- CreateIndex
CREATE UNIQUE INDEX "subagents_parent_id_spawn_call_id_key" ON "subagents"("parent_id", "spawn_call_id");

-- CreateIndex
CREATE INDEX "subagent_invocations_child_id_finished_at_idx" ON "subagent_invocations"("child_id", "finished_at");

-- CreateIndex
CREATE UNIQUE INDEX "subagent_invocations_parent_id_call_id_key" ON "subagent_invocations"("parent_id", "call_id");

-- CreateIndex
CREATE INDEX "subagent_env_requests_parent_id_idx" ON "subagent_env_requests"("parent_id");

-- CreateIndex
CREATE INDEX "inbox_items_consumed_at_created_at_idx" ON "inbox_items"("consumed_at", "created_at");

-- CreateIndex
CREATE INDEX "messages_thread_id_tool_call_id_idx" ON "messages"("thread_id", "tool_call_id");

-- AddForeignKey
ALTER TABLE "subagents" ADD CONSTRAINT "subagents_child_id_fkey" FOREIGN KEY ("child_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subagent_invocations" ADD CONSTRAINT "subagent_invocations_child_id_fkey" FOREIGN KEY ("child_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subagent_env_requests" ADD CONSTRAINT "subagent_env_requests_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Event ids in commit order, assigned at commit: a deferred trigger takes the root's advisory lock and
-- renumbers the transaction's events from the sequence while COMMIT runs, so the lock is held for the
-- commit itself and never across a client round trip. An SSE reader resuming after id N can then never
-- miss a later-committing event with a lower id (docs/runtime.md, "Data and durability").
CREATE FUNCTION "events_order_at_commit"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('tandem_events:' || NEW.root_id::text, 0));
  UPDATE "events" SET "id" = nextval(pg_get_serial_sequence('"events"', 'id')) WHERE "id" = NEW."id";
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER "events_order_at_commit"
  AFTER INSERT ON "events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "events_order_at_commit"();
