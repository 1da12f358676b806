// Helpers of the sign-in routes: the session cookie, whether the page was served over https, the
// client's address (sign-in throttling) and the same-site check of a sign-in form.
import { sessionCookieHeaderFor } from "@/runtime/security/api-token";
import { isCrossSiteRequest } from "./http";

export function isHttps(request: Request): boolean {
  return (
    new URL(request.url).protocol === "https:" ||
    (request.headers.get("x-forwarded-proto") ?? "").split(",")[0]?.trim() === "https"
  );
}

export function sessionCookie(request: Request, session: string): string {
  return sessionCookieHeaderFor(session, isHttps(request));
}

/** The client's address as the nearest proxy reports it (or "local"): a sign-in throttling key only. */
export function clientAddress(request: Request): string {
  return (
    request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ||
    request.headers.get("x-real-ip") ||
    "local"
  );
}

export { isCrossSiteRequest };
