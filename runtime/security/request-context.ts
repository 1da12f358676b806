// Who the request being handled is (set by `handle()` in app/api/_lib/http.ts for the handler's whole
// run), so routes and services can ask without threading it through every signature.
import { AsyncLocalStorage } from "node:async_hooks";

export type Principal =
  /** No user exists and no TANDEM_API_TOKEN: the local default, open to everyone. */
  | { type: "open" }
  /** The server's TANDEM_API_TOKEN (bearer or its browser cookie): everything, like an admin. */
  | { type: "token" }
  | { type: "user"; id: string; email: string; name: string; admin: boolean }
  | { type: "key"; id: string; name: string; projectId: string; scopes: string[] };

type ContextGlobal = typeof globalThis & {
  __tandemRequestContext?: AsyncLocalStorage<{ principal: Principal }>;
};

/**
 * One store per process, on globalThis like the runtime itself: a route module loaded twice (Next's
 * own route loading and the API's fast lane, scripts/api-fast-lane.mjs, share one copy today) must
 * still see the principal `handle()` set.
 */
const holder = globalThis as ContextGlobal;
holder.__tandemRequestContext ??= new AsyncLocalStorage<{ principal: Principal }>();
const storage = holder.__tandemRequestContext;

export function runAs<T>(principal: Principal, work: () => Promise<T>): Promise<T> {
  return storage.run({ principal }, work);
}

/** The current request's principal (open outside a request: scripts, the worker). */
export function currentPrincipal(): Principal {
  return storage.getStore()?.principal ?? { type: "open" };
}

/** Whether the principal sees every project (open server, API token, admin). */
export function seesEverything(principal: Principal): boolean {
  return (
    principal.type === "open" || principal.type === "token" || (principal.type === "user" && principal.admin)
  );
}
