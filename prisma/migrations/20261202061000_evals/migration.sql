-- Evaluations (issue 42; docs/evals.md): suites of cases per project, runs of a suite against a saved
-- version (with the plan they started with and the lease of the process driving them, so a run
-- survives a restart) and one result row per case and repetition (unique: each finishes once).
-- CreateTable
CREATE TABLE "eval_suites" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "assertions" JSONB NOT NULL DEFAULT '[]',
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "eval_suites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_cases" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "env" JSONB NOT NULL DEFAULT '{}',
    "assertions" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "eval_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_runs" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "repetitions" INTEGER NOT NULL DEFAULT 1,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "plan" JSONB NOT NULL,
    "total" INTEGER NOT NULL,
    "summary" JSONB,
    "failure" TEXT,
    "lease_owner" TEXT,
    "lease_expires_at" BIGINT,
    "created_at" BIGINT NOT NULL,
    "finished_at" BIGINT,

    CONSTRAINT "eval_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_results" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "case_id" UUID NOT NULL,
    "repetition" INTEGER NOT NULL,
    "thread_id" UUID,
    "state" TEXT NOT NULL DEFAULT 'running',
    "passed" BOOLEAN,
    "score" DOUBLE PRECISION,
    "assertions" JSONB NOT NULL DEFAULT '[]',
    "turns" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,
    "finished_at" BIGINT,

    CONSTRAINT "eval_results_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "eval_suites_project_id_name_key" ON "eval_suites"("project_id", "name");

-- CreateIndex
CREATE INDEX "eval_cases_suite_id_position_idx" ON "eval_cases"("suite_id", "position");

-- CreateIndex
CREATE INDEX "eval_runs_suite_id_created_at_idx" ON "eval_runs"("suite_id", "created_at");

-- CreateIndex
CREATE INDEX "eval_runs_status_idx" ON "eval_runs"("status");

-- CreateIndex
CREATE INDEX "eval_results_thread_id_idx" ON "eval_results"("thread_id");

-- CreateIndex
CREATE UNIQUE INDEX "eval_results_run_id_case_id_repetition_key" ON "eval_results"("run_id", "case_id", "repetition");

-- AddForeignKey
ALTER TABLE "eval_cases" ADD CONSTRAINT "eval_cases_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "eval_suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "eval_suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_results" ADD CONSTRAINT "eval_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "eval_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_suites" ADD CONSTRAINT "eval_suites_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
