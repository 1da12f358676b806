-- Traces out (docs/observability.md): the trace context of each thread's current run, so that any
-- process that runs a step of the thread, or ends its run, continues the same trace.
-- CreateTable
CREATE TABLE "thread_traces" (
    "thread_id" UUID NOT NULL,
    "trace_id" TEXT NOT NULL,
    "parent_span_id" TEXT,
    "span_id" TEXT NOT NULL,
    "started_at" BIGINT NOT NULL,
    "ended" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "thread_traces_pkey" PRIMARY KEY ("thread_id")
);

-- AddForeignKey
ALTER TABLE "thread_traces" ADD CONSTRAINT "thread_traces_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
