// Next.js start-up hook: the app server runs the thread scheduler in-process unless
// TANDEM_SCHEDULER=off (e.g. when dedicated `npm run worker` processes do the work).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.TANDEM_SCHEDULER === "off") return;
  const { getRuntime } = await import("./runtime/runtime");
  const runtime = await getRuntime();
  await runtime.scheduler.start();
}
