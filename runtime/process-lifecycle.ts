// Process lifecycle of an app server and of a worker (`npm run worker`): start the scheduler and the
// effect runner (an app server skips both with TANDEM_RUN_THREADS=false, when dedicated workers do
// the work) and drain on SIGTERM/SIGINT: stop claiming, let in-flight steps and effects finish until
// TANDEM_DRAIN_MS, hand the rest back, close the database (which keeps PGlite's folder consistent)
// and exit 0.
// Next.js must leave signals to us: the npm scripts set NEXT_MANUAL_SIG_HANDLE=true.
import "server-only";
import { describeDatabase, resolveDatabaseConfig } from "@/lib/db/config";
import { getRuntime, type Runtime } from "./runtime";
import { schedulerSettingsFromEnv } from "./scheduler/settings";
import { metrics, metricsSettingsFromEnv } from "./telemetry/metrics";
import { tracing, tracingSettingsFromEnv } from "./telemetry/tracing";

export class WorkerConfigError extends Error {
  readonly code = "worker_config_invalid";
}

export async function startServerProcess(): Promise<void> {
  startTracing();
  startMetrics();
  const settings = schedulerSettingsFromEnv(process.env);
  const runtime = await getRuntime();
  if (settings.runThreads) {
    await runtime.scheduler.start();
    await runtime.effectRunner.start();
    await runtime.evals.start();
  } else console.log("[tandem] this server does not run threads (TANDEM_RUN_THREADS=false)");
  drainOnSignals(runtime, settings.drainMs);
}

/** A process that runs threads and nothing else, on a Postgres server shared with app servers. */
export async function startWorkerProcess(): Promise<Runtime> {
  const config = resolveDatabaseConfig(process.env);
  if (config.kind !== "postgres") {
    throw new WorkerConfigError(
      `A worker needs a Postgres server shared with the app servers: set DATABASE_URL to a postgres:// URL (now: ${describeDatabase(config)}). An embedded PGlite database belongs to one process and cannot be shared.`,
    );
  }
  startTracing();
  startMetrics();
  const settings = schedulerSettingsFromEnv(process.env);
  const runtime = await getRuntime();
  await runtime.scheduler.start();
  await runtime.effectRunner.start();
  await runtime.evals.start();
  console.log(
    `[tandem] worker ${runtime.scheduler.owner} running threads on ${describeDatabase(config)} (concurrency ${settings.concurrency}, up to ${settings.maxClaimed} threads claimed, lease ${settings.leaseMs} ms, drain ${settings.drainMs} ms)`,
  );
  drainOnSignals(runtime, settings.drainMs);
  return runtime;
}

/** Traces out (docs/observability.md): started with the process when an OTLP endpoint is set. */
function startTracing(): void {
  const settings = tracingSettingsFromEnv(process.env);
  if (!settings) return;
  tracing();
  console.log(
    `[tandem] traces go out over OTLP (${settings.protocol}) as service ${settings.serviceName}${settings.captureContent ? ", with message content" : ""}`,
  );
}

/** Metrics out (docs/observability.md): started with the process when an OTLP endpoint is set. */
function startMetrics(): void {
  const settings = metricsSettingsFromEnv(process.env);
  if (!settings) return;
  metrics();
  console.log(
    `[tandem] metrics go out over OTLP (${settings.protocol}) as service ${settings.serviceName}, every ${settings.exportIntervalMs} ms`,
  );
}

function drainOnSignals(runtime: Runtime, drainMs: number): void {
  let closing = false;
  const shutDown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(
      `[tandem] ${signal}: draining (${runtime.scheduler.inFlight} threads in flight, up to ${drainMs} ms)`,
    );
    void Promise.all([
      runtime.evals.stop().catch((error: unknown) => {
        console.error("[tandem] handing eval runs back failed (their leases expire):", error);
      }),
      runtime.scheduler.drain(drainMs),
      runtime.effectRunner.drain(drainMs).catch((error: unknown) => {
        console.error("[tandem] draining effects failed (their leases expire):", error);
        return { finished: 0, handedBack: 0 };
      }),
    ])
      .then(([, { atStepBoundary, aborted }, effects]) => {
        if (effects.handedBack > 0)
          console.log(`[tandem] ${effects.handedBack} running effect(s) handed back for another process`);
        console.log(
          `[tandem] drained: ${atStepBoundary} stopped at a step boundary, ${aborted} aborted mid-step; every unfinished thread was handed back`,
        );
        // Streams end first (their clients reconnect with Last-Event-ID), then the watcher rows go.
        runtime.watch.close();
        return runtime.events
          .close()
          .catch((error: unknown) =>
            console.error("[tandem] unregistering live event streams failed (they expire):", error),
          );
      })
      .then(() => runtime.closeMcpClients())
      .then(() =>
        Promise.all([
          tracing()
            .shutdown()
            .catch((error: unknown) => console.error("[tandem] sending the last spans failed:", error)),
          metrics()
            .shutdown()
            .catch((error: unknown) => console.error("[tandem] sending the last metrics failed:", error)),
        ]),
      )
      .then(() => runtime.closeDatabase())
      .catch((error: unknown) => console.error("[tandem] shutdown failed:", error))
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", () => shutDown("SIGTERM"));
  process.once("SIGINT", () => shutDown("SIGINT"));
}
