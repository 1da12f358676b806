// In `npm run dev`, Next compiles a route on its first request: the studio's takes tens of seconds,
// so "Create project" would look dead while it compiles. The home page asks for the studio route
// once after it loads (an id no project has: the answer is a 404, the compiled route stays), so the
// first real visit finds it ready. A production build has every route compiled: nothing is asked.

/** The address asked for: a well-formed id that is no project's (the page answers 404 after compiling). */
export const STUDIO_WARM_UP_PATH = "/projects/00000000-0000-4000-8000-000000000000/studio";

/**
 * Asks for the studio route once when `mode` is "development"; answers whether it asked. Errors are
 * ignored: the warm-up only saves time.
 */
export function warmStudioRoute(
  mode: string | undefined,
  request: (path: string) => Promise<unknown>,
): boolean {
  if (mode !== "development") return false;
  request(STUDIO_WARM_UP_PATH).catch(() => undefined);
  return true;
}
