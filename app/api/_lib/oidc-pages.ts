// What the OpenID Connect routes answer a browser: a small page that sends it on once signed in
// (a page, not a redirect, so the SameSite=Strict session cookie rides along: a redirect would still
// count as the provider's cross-site navigation), and a 4xx page saying why a sign-in was refused
// with a way back to /login. Scripts (no `Accept: text/html`) get our JSON error shape instead.
import { isTandemError, type TandemError } from "@/runtime/errors";
import { OidcError } from "@/runtime/runtime";
import { jsonError } from "./http";

const STATUS_FOR: Record<string, number> = { forbidden: 403, conflict: 409, invalid_input: 400 };

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? "",
  );

function page(title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Tandem</title>${head}
<style>
  body { font: 14px/1.5 system-ui, sans-serif; background: #f7f7f8; color: #1d1d22; margin: 0; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; border: 1px solid #d9d9de; border-radius: 8px; padding: 1.5rem; }
  h1 { font-size: 1.125rem; margin: 0 0 .5rem; }
  a { color: #1f4fd1; }
  @media (prefers-color-scheme: dark) {
    body { background: #151518; color: #ececf1; } main { background: #1d1d22; border-color: #3a3a42; } a { color: #8fb0ff; }
  }
</style></head>
<body><main>${body}</main></body></html>`;
}

export const OIDC_NOT_CONFIGURED = new OidcError(
  404,
  "oidc_not_configured",
  "Sign-in with an OpenID provider is not configured on this server (TANDEM_OIDC_ISSUER, TANDEM_OIDC_CLIENT_ID and TANDEM_OIDC_CLIENT_SECRET).",
);

const wantsHtml = (request: Request) => (request.headers.get("accept") ?? "").includes("text/html");

/** Signed in: the page that continues to `next` (a same-site path checked by safeNextPath). */
export function continuePage(next: string, headers: Headers): Response {
  headers.set("content-type", "text/html; charset=utf-8");
  headers.set("cache-control", "no-store");
  const html = page(
    "Signed in",
    `<h1>Signed in</h1><p role="status">Taking you to Tandem… <a href="${escapeHtml(next)}">Continue</a></p>`,
    `<meta http-equiv="refresh" content="0;url=${escapeHtml(next)}">`,
  );
  return new Response(html, { status: 200, headers });
}

/** A refused start or callback: its 4xx (or 502) with the reason, as a page or as JSON. */
export function refusalResponse(
  request: Request,
  error: OidcError | TandemError,
  headers: Headers = new Headers(),
): Response {
  const status = isTandemError(error) ? (STATUS_FOR[error.kind] ?? 400) : error.status;
  if (!wantsHtml(request)) {
    const response = jsonError(status, error.code, error.message);
    headers.forEach((value, name) => {
      response.headers.append(name, value);
    });
    return response;
  }
  headers.set("content-type", "text/html; charset=utf-8");
  headers.set("cache-control", "no-store");
  const html = page(
    "Sign-in refused",
    `<h1>You are not signed in</h1><p role="alert">${escapeHtml(error.message)}</p><p><a href="/login">Back to sign in</a></p>`,
  );
  return new Response(html, { status, headers });
}
