// Next.js request interception (Next 16's `proxy.ts`, formerly `middleware.ts`) for pages: when
// TANDEM_API_TOKEN is set, a browser without a valid session cookie is sent to /login. API routes are
// not matched on purpose — `handle()` in app/api/_lib/http.ts checks the token on every route, and a
// matched request would have its body buffered by Next before the route could enforce its size limit.
import { type NextRequest, NextResponse } from "next/server";
import { authoriseRequest } from "@/runtime/security/api-token";

/** The spec's own API path outside /api (scoped variable bootstrap); its handlers check the token. */
const SPEC_API_PATH = /^\/threads\/[^/]+\/variables\/[^/]+\/?$/;

export function proxy(request: NextRequest) {
  if (SPEC_API_PATH.test(request.nextUrl.pathname)) return NextResponse.next();
  if (authoriseRequest(request.headers).ok) return NextResponse.next();
  const login = new URL("/login", request.url);
  login.searchParams.set("next", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(login, 307);
}

export const config = {
  // The icons and public/ files are static and public (no 307 to /login for a favicon).
  matcher: ["/((?!api/|login|_next/static|_next/image|favicon\\.ico|favicon\\.svg|logo\\.svg|icon\\.svg).*)"],
};
