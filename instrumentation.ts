// Next.js start-up hook: on the Node.js runtime, start Tandem's server process lifecycle
// (in-process scheduler, graceful shutdown). See runtime/process-lifecycle.ts.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServerProcess } = await import("./runtime/process-lifecycle");
    await startServerProcess();
  }
}
