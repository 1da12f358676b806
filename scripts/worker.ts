// `npm run worker`: a process that runs threads and nothing else (no HTTP), on the Postgres server
// named by DATABASE_URL and shared with any number of app servers and other workers. See docs/deploy.md.
import { startWorkerProcess } from "../runtime/process-lifecycle";

const HELP = `Usage: npm run worker

Runs Tandem threads from the Postgres database named by DATABASE_URL, beside any number of app
servers and other workers. No HTTP. SIGTERM drains: claiming stops, in-flight steps may finish
for TANDEM_DRAIN_MS, the rest is handed back to the other processes, then the worker exits 0.

Environment (defaults in docs/deploy.md):
  DATABASE_URL           postgres://… (required; PGlite cannot be shared)
  TANDEM_CONCURRENCY     steps run at once; model calls hold no step (64)
  TANDEM_MAX_CLAIMED_THREADS  threads held at once, most waiting on models (10000)
  TANDEM_LOCAL_TAKE_ROUNDS    rounds of steps taken at once of what this worker makes runnable (2)
  TANDEM_LEASE_MS        lease length; a killed worker's threads move within it + 1 s (6000)
  TANDEM_POLL_MS         fallback poll (1000)
  TANDEM_DRAIN_MS        SIGTERM deadline for in-flight steps (10000)
  TANDEM_MAX_RUN_MS      wall clock of a run, 0 = none (0)
  TANDEM_MAX_QUEUED_MS   longest wait for a worker, 0 = none (0)
  TANDEM_TOOL_TIMEOUT_MS time limit of a code tool call (300000)
`;

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  process.stdout.write(HELP);
  process.exit(0);
}

startWorkerProcess().catch((error: unknown) => {
  console.error(`[tandem] the worker could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
