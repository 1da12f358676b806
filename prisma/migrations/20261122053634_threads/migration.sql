-- CreateTable
CREATE TABLE "threads" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "project_version" INTEGER NOT NULL,
    "agent_name" TEXT NOT NULL,
    "parent_id" UUID,
    "root_id" UUID NOT NULL,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT,
    "status" TEXT NOT NULL,
    "status_text" TEXT,
    "terminated_at" BIGINT,
    "user_stopped" BOOLEAN NOT NULL DEFAULT false,
    "execution" JSONB NOT NULL,
    "env" JSONB NOT NULL DEFAULT '{}',
    "scoped_env" JSONB NOT NULL DEFAULT '{}',
    "result" TEXT,
    "failure" TEXT,
    "stop_reason" TEXT,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "runnable" BOOLEAN NOT NULL DEFAULT false,
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(6),
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "side" TEXT,
    "content" TEXT,
    "name" TEXT,
    "tool_calls" JSONB,
    "tool_call_id" TEXT,
    "tool_status" TEXT,
    "parent_id" UUID,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "silent" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "subagent_id" UUID,
    "attachments" JSONB NOT NULL DEFAULT '[]',
    "prompt" TEXT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox_items" (
    "id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "idempotency_key" TEXT,
    "created_at" BIGINT NOT NULL,
    "consumed_at" BIGINT,

    CONSTRAINT "inbox_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" BIGSERIAL NOT NULL,
    "root_id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_calls" (
    "id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "side" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "answered_by" TEXT,
    "provider_model_id" TEXT,
    "request" JSONB NOT NULL,
    "response" JSONB,
    "error" TEXT,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "model_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_runs" (
    "id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "args" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "result" TEXT,
    "started_at" BIGINT NOT NULL,
    "finished_at" BIGINT,

    CONSTRAINT "tool_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "thread_files" (
    "thread_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "thread_files_pkey" PRIMARY KEY ("thread_id","path")
);

-- CreateIndex
CREATE INDEX "threads_project_id_created_at_idx" ON "threads"("project_id", "created_at");

-- CreateIndex
CREATE INDEX "threads_parent_id_idx" ON "threads"("parent_id");

-- CreateIndex
CREATE INDEX "threads_root_id_idx" ON "threads"("root_id");

-- CreateIndex
CREATE INDEX "threads_runnable_lease_expires_at_idx" ON "threads"("runnable", "lease_expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "messages_thread_id_seq_key" ON "messages"("thread_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "inbox_items_idempotency_key_key" ON "inbox_items"("idempotency_key");

-- CreateIndex
CREATE INDEX "inbox_items_thread_id_seq_idx" ON "inbox_items"("thread_id", "seq");

-- CreateIndex
CREATE INDEX "events_root_id_id_idx" ON "events"("root_id", "id");

-- CreateIndex
CREATE INDEX "model_calls_thread_id_side_model_name_idx" ON "model_calls"("thread_id", "side", "model_name");

-- CreateIndex
CREATE INDEX "tool_runs_thread_id_started_at_idx" ON "tool_runs"("thread_id", "started_at");

-- AddForeignKey
ALTER TABLE "threads" ADD CONSTRAINT "threads_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "threads" ADD CONSTRAINT "threads_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_runs" ADD CONSTRAINT "tool_runs_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread_files" ADD CONSTRAINT "thread_files_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
