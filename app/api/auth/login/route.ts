// POST /api/auth/login — the browser's way in when TANDEM_API_TOKEN is set (EventSource and page
// loads cannot send an Authorization header). Checks the token in constant time and sets an HttpOnly,
// SameSite=Strict session cookie. Takes the /login form (application/x-www-form-urlencoded, answered
// with a 303 redirect) or JSON `{ token }` (answered with JSON).
import { z } from "zod";
import {
  configuredApiToken,
  safeNextPath,
  secretsMatch,
  sessionCookieHeader,
} from "@/runtime/security/api-token";
import { handle, jsonError, parseJsonBody, readBodyText } from "../../_lib/http";

export const dynamic = "force-dynamic";

const LoginBody = z.object({ token: z.string().max(4096), next: z.string().max(2048).optional() });

/**
 * A form post may only come from our own pages; SameSite=Strict covers the cookie, this covers the
 * login itself. Compared with the Host the browser addressed (or the proxy's X-Forwarded-Host), not
 * with request.url, which Next builds from the address the server listens on.
 */
function isCrossSite(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const hosts = [request.headers.get("host"), request.headers.get("x-forwarded-host")?.split(",")[0]?.trim()];
  return !hosts.includes(originHost);
}

function isHttps(request: Request): boolean {
  return (
    new URL(request.url).protocol === "https:" ||
    (request.headers.get("x-forwarded-proto") ?? "").split(",")[0]?.trim() === "https"
  );
}

export const POST = handle(
  async (request: Request) => {
    const isForm = (request.headers.get("content-type") ?? "").startsWith(
      "application/x-www-form-urlencoded",
    );
    const text = await readBodyText(request);
    const fields = isForm ? Object.fromEntries(new URLSearchParams(text)) : parseJsonBody(text);
    if (fields === undefined)
      return jsonError(400, "invalid_request", "Send JSON { token } or the /login form.");
    const body = LoginBody.parse(fields);
    const next = safeNextPath(body.next);
    const expected = configuredApiToken();
    const redirect = (location: string, headers: Record<string, string> = {}) =>
      new Response(null, { status: 303, headers: { location, ...headers } });

    if (!expected) {
      return isForm ? redirect(next) : Response.json({ ok: true, token_required: false });
    }
    if (isCrossSite(request) || !secretsMatch(body.token, expected)) {
      if (isForm) return redirect(`/login?error=1&next=${encodeURIComponent(next)}`);
      return jsonError(401, "unauthorized", "That is not this server's API token (TANDEM_API_TOKEN).");
    }
    const cookie = sessionCookieHeader(expected, isHttps(request));
    if (isForm) return redirect(next, { "set-cookie": cookie });
    return Response.json({ ok: true, token_required: true }, { headers: { "set-cookie": cookie } });
  },
  { public: true },
);
