-- Tool approvals (docs/runtime.md "Approvals"): one row per call of a tool marked requiresApproval,
-- written with the commit that parks its thread (waiting_approval); decided once (pending -> approved|denied).
-- CreateTable
CREATE TABLE "tool_approvals" (
    "id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "root_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "args" JSONB NOT NULL DEFAULT '{}',
    "args_schema" JSONB,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "decided_args" JSONB,
    "reason" TEXT,
    "requested_at" BIGINT NOT NULL,
    "decided_at" BIGINT,

    CONSTRAINT "tool_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tool_approvals_root_id_state_idx" ON "tool_approvals"("root_id", "state");

-- CreateIndex
CREATE INDEX "tool_approvals_project_id_state_idx" ON "tool_approvals"("project_id", "state");

-- CreateIndex
CREATE UNIQUE INDEX "tool_approvals_thread_id_tool_call_id_key" ON "tool_approvals"("thread_id", "tool_call_id");

-- AddForeignKey
ALTER TABLE "tool_approvals" ADD CONSTRAINT "tool_approvals_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
