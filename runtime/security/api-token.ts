// The optional API token (TANDEM_API_TOKEN). When it is set, every API request must carry it as
// `Authorization: Bearer <token>` or carry the browser session cookie that /api/auth/login sets after
// checking it. Pure functions over headers, shared by the route helper (app/api/_lib/http.ts) and the
// page proxy (proxy.ts); node:crypto only, so it loads in either place.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "tandem_session";
/** A browser session lasts a week; signing in again is one form. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

type Environment = Record<string, string | undefined>;

/** The configured token, or undefined when the server is open (the default). */
export function configuredApiToken(env: Environment = process.env): string | undefined {
  const token = env.TANDEM_API_TOKEN?.trim();
  return token ? token : undefined;
}

/**
 * Constant-time comparison. Both sides are hashed first, so inputs of any length compare in the same
 * time and `timingSafeEqual` never throws on a length mismatch.
 */
export function secretsMatch(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/**
 * The cookie holds a value derived from the token, never the token itself: a leaked cookie grants
 * the same access but does not reveal the token used by scripts. Changing the token signs everyone out.
 */
export function sessionCookieValue(token: string): string {
  return createHmac("sha256", token).update("tandem-ui-session-v1").digest("base64url");
}

export function bearerToken(authorization: string | null): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  return match?.[1];
}

export function cookieValue(cookieHeader: string | null, name: string): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

export type Authorisation =
  | { ok: true; required: boolean }
  | { ok: false; reason: "missing_credentials" | "invalid_credentials" };

/** Whether a request with these headers may use the API. Open when no token is configured. */
export function authoriseRequest(headers: Headers, env: Environment = process.env): Authorisation {
  const token = configuredApiToken(env);
  if (!token) return { ok: true, required: false };
  const bearer = bearerToken(headers.get("authorization"));
  if (bearer !== undefined) {
    return secretsMatch(bearer, token)
      ? { ok: true, required: true }
      : { ok: false, reason: "invalid_credentials" };
  }
  const session = cookieValue(headers.get("cookie"), SESSION_COOKIE);
  if (session !== undefined) {
    return secretsMatch(session, sessionCookieValue(token))
      ? { ok: true, required: true }
      : { ok: false, reason: "invalid_credentials" };
  }
  return { ok: false, reason: "missing_credentials" };
}

/** The Set-Cookie header for a signed-in browser; `secure` when the page was served over https. */
export function sessionCookieHeader(token: string, secure: boolean): string {
  return sessionCookieHeaderFor(sessionCookieValue(token), secure);
}

/** The Set-Cookie header carrying a session value (a user session's random id, or the token's HMAC). */
export function sessionCookieHeaderFor(value: string, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${SESSION_MAX_AGE_SECONDS}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function clearedSessionCookieHeader(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}

/** Where to go after signing in: a local path only, never another origin (`//evil`, `/\evil`). */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return "/";
  if ([...raw].some((character) => character.charCodeAt(0) < 0x20)) return "/";
  return raw;
}
