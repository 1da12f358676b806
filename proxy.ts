// Next.js request interception (Next 16's `proxy.ts`, formerly `middleware.ts`) for pages: when
// TANDEM_API_TOKEN is set, a browser without a session cookie is sent to /login. A page it lets
// through is marked with its path (PAGE_PATH_HEADER), and the root layout checks the session itself
// (app/_lib/page-gate.ts: accounts, roles), where the database is. API routes are not matched on
// purpose — `handle()` in app/api/_lib/http.ts checks every route, and a matched request would have
// its body buffered by Next before the route could enforce its size limit.
import { type NextRequest, NextResponse } from "next/server";
import { authoriseRequest, cookieValue, SESSION_COOKIE } from "@/runtime/security/api-token";

/** The spec's own API path outside /api (scoped variable bootstrap); its handlers check the token. */
const SPEC_API_PATH = /^\/threads\/[^/]+\/variables\/[^/]+\/?$/;

/** The same name as app/_lib/page-gate.ts's PAGE_PATH_HEADER (that module is server-only). */
const PAGE_PATH_HEADER = "x-tandem-page";

export function proxy(request: NextRequest) {
  if (SPEC_API_PATH.test(request.nextUrl.pathname)) return NextResponse.next();
  const path = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  const hasSession = cookieValue(request.headers.get("cookie"), SESSION_COOKIE) !== undefined;
  if (authoriseRequest(request.headers).ok || hasSession) {
    const headers = new Headers(request.headers);
    headers.set(PAGE_PATH_HEADER, path);
    return NextResponse.next({ request: { headers } });
  }
  const login = new URL("/login", request.url);
  login.searchParams.set("next", path);
  return NextResponse.redirect(login, 307);
}

export const config = {
  // The icons and public/ files are static and public (no 307 to /login for a favicon).
  matcher: ["/((?!api/|login|_next/static|_next/image|favicon\\.ico|favicon\\.svg|logo\\.svg|icon\\.svg).*)"],
};
