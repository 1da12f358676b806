// Process lifecycle of an app server: start the in-process scheduler (unless TANDEM_SCHEDULER=off,
// e.g. when dedicated workers do the work) and shut down gracefully on SIGTERM/SIGINT: stop
// claiming, hand running threads back, close the database (which keeps PGlite's folder consistent).
// Next.js must leave signals to us: the npm scripts set NEXT_MANUAL_SIG_HANDLE=true.
import "server-only";
import { getRuntime } from "./runtime";

export async function startServerProcess(): Promise<void> {
  const runtime = await getRuntime();
  if (process.env.TANDEM_SCHEDULER !== "off") await runtime.scheduler.start();
  let closing = false;
  const shutDown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`[tandem] ${signal}: stopping the scheduler and closing the database`);
    void runtime.scheduler
      .stop()
      .then(() => runtime.database.close())
      .catch((error: unknown) => console.error("[tandem] shutdown failed:", error))
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", () => shutDown("SIGTERM"));
  process.once("SIGINT", () => shutDown("SIGINT"));
}
