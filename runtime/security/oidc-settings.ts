// Sign-in with an OpenID Connect provider, as configured by environment (docs/security.md "Single
// sign-on"): TANDEM_OIDC_ISSUER, TANDEM_OIDC_CLIENT_ID and TANDEM_OIDC_CLIENT_SECRET turn it on;
// TANDEM_OIDC_NAME labels the button, TANDEM_OIDC_SCOPES widens the scopes, TANDEM_OIDC_ALLOW_SIGNUP
// lets unknown verified emails in as new users, TANDEM_PUBLIC_URL fixes the callback's origin.
// Pure reading of the environment, no protocol code, so pages can ask "is it on, and what is its name".

type Environment = Record<string, string | undefined>;

export interface OidcSettings {
  /** The issuer URL exactly as configured (discovery reads `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** Read from the environment only; never logged, never sent anywhere but the provider's token endpoint. */
  clientSecret: string;
  /** The provider's name on the button: "Sign in with <name>". */
  name: string;
  /** Space-separated; always includes openid and email. */
  scopes: string;
  /** Whether a verified email with no account becomes a new (non-admin, project-less) user. */
  allowSignup: boolean;
  /** The public origin of this server, when set (the callback URL is derived from it). */
  publicUrl: string | undefined;
}

/** The callback path registered at the provider: `<origin>/api/auth/oidc/callback`. */
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
export const OIDC_START_PATH = "/api/auth/oidc/start";

const warned = new Set<string>();

function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[tandem] ${message}`);
}

/** The settings, or null when OIDC is not configured (any of issuer, client id, secret missing). */
export function oidcSettings(env: Environment = process.env): OidcSettings | null {
  const issuer = env.TANDEM_OIDC_ISSUER?.trim();
  const clientId = env.TANDEM_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.TANDEM_OIDC_CLIENT_SECRET?.trim();
  if (!issuer && !clientId && !clientSecret) return null;
  if (!issuer || !clientId || !clientSecret) {
    const missing = [
      issuer ? null : "TANDEM_OIDC_ISSUER",
      clientId ? null : "TANDEM_OIDC_CLIENT_ID",
      clientSecret ? null : "TANDEM_OIDC_CLIENT_SECRET",
    ].filter(Boolean);
    warnOnce(`OpenID Connect sign-in is off: ${missing.join(" and ")} not set.`);
    return null;
  }
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    warnOnce(`OpenID Connect sign-in is off: TANDEM_OIDC_ISSUER is not a URL.`);
    return null;
  }
  if (issuerUrl.protocol !== "https:" && !isLoopback(issuerUrl)) {
    warnOnce("OpenID Connect sign-in is off: TANDEM_OIDC_ISSUER must be https (http only on 127.0.0.1).");
    return null;
  }
  const extra = (env.TANDEM_OIDC_SCOPES ?? "").split(/[\s,]+/).filter(Boolean);
  const scopes = [...new Set(["openid", "email", "profile", ...extra])].join(" ");
  const publicUrl = env.TANDEM_PUBLIC_URL?.trim();
  return {
    issuer,
    clientId,
    clientSecret,
    name: env.TANDEM_OIDC_NAME?.trim() || "single sign-on",
    scopes,
    allowSignup: /^(1|true|yes|on)$/i.test(env.TANDEM_OIDC_ALLOW_SIGNUP?.trim() ?? ""),
    publicUrl: publicUrl ? publicUrl.replace(/\/+$/, "") : undefined,
  };
}

/** A provider on this machine may speak plain http (a test provider, a local Keycloak). */
export function isLoopback(url: URL): boolean {
  return url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
}

/**
 * The redirect URI sent to the provider (and registered there): TANDEM_PUBLIC_URL's origin if set,
 * else the origin the request came to (its Host, or the proxy's X-Forwarded-Host/-Proto).
 */
export function oidcCallbackUrl(settings: OidcSettings, request: Request): string {
  if (settings.publicUrl) return `${settings.publicUrl}${OIDC_CALLBACK_PATH}`;
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(",")[0]?.trim() || undefined;
  const proto = first("x-forwarded-proto") ?? url.protocol.replace(":", "");
  const host = first("x-forwarded-host") ?? first("host") ?? url.host;
  return `${proto}://${host}${OIDC_CALLBACK_PATH}`;
}
