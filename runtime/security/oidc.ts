// The OpenID Connect protocol of "Sign in with <provider>" (docs/security.md "Single sign-on"), done
// by openid-client (discovery, authorization code flow with PKCE, state and nonce, ID token
// validation): `beginOidcSignIn` makes the provider URL and the short-lived flow cookie;
// `finishOidcSignIn` checks the callback against that cookie and answers who the provider says
// signed in. Who may then sign in to Tandem is AccessService's decision, not this module's.
import { createHmac, timingSafeEqual } from "node:crypto";
import * as client from "openid-client";
import { isLoopback, type OidcSettings } from "./oidc-settings";

/** The flow cookie: state, nonce and PKCE verifier of one sign-in attempt, signed, for 10 minutes. */
export const OIDC_FLOW_COOKIE = "tandem_oidc_flow";
export const OIDC_FLOW_MAX_AGE_SECONDS = 600;

export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
  /** Where to go once signed in (a same-site path). */
  next: string;
  /** Epoch ms after which the attempt is refused. */
  expires: number;
  /**
   * The SHA-256 of the session the browser had at the start, ended on success (the callback is the
   * provider's cross-site navigation, which does not carry the SameSite=Strict session cookie).
   */
  previousSession?: string;
}

export interface OidcIdentity {
  /** The issuer as the provider's discovery document names it. */
  issuer: string;
  subject: string;
  /** Lower-cased; undefined when the provider sent none. */
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

/** A refused callback or start: a 4xx (or 502 when the provider is unreachable) with a clear message. */
export class OidcError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "OidcError";
  }
}

// ── The flow cookie ──────────────────────────────────────────────────────────────────────────────

/** The cookie is signed with a key derived from the client secret: nobody else can mint one. */
function signature(settings: OidcSettings, payload: string): Buffer {
  const key = createHmac("sha256", settings.clientSecret).update("tandem-oidc-flow-v1").digest();
  return createHmac("sha256", key).update(payload).digest();
}

export function sealFlow(settings: OidcSettings, flow: OidcFlow): string {
  const payload = Buffer.from(JSON.stringify(flow), "utf8").toString("base64url");
  return `${payload}.${signature(settings, payload).toString("base64url")}`;
}

/** The flow the cookie carries, or OidcError (missing, tampered with, or older than 10 minutes). */
export function openFlow(settings: OidcSettings, cookie: string | undefined, now = Date.now()): OidcFlow {
  const restart = "Start again from the sign-in page.";
  if (!cookie)
    throw new OidcError(
      400,
      "oidc_no_flow",
      `No sign-in attempt is in progress in this browser (its cookie is missing or expired). ${restart}`,
    );
  const [payload, mac] = cookie.split(".");
  const expected = payload ? signature(settings, payload) : Buffer.alloc(0);
  const given = Buffer.from(mac ?? "", "base64url");
  if (!payload || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new OidcError(400, "oidc_bad_flow", `The sign-in attempt's cookie is not valid. ${restart}`);
  let flow: OidcFlow;
  try {
    flow = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as OidcFlow;
  } catch {
    throw new OidcError(400, "oidc_bad_flow", `The sign-in attempt's cookie is not valid. ${restart}`);
  }
  if (typeof flow.expires !== "number" || flow.expires <= now)
    throw new OidcError(
      400,
      "oidc_expired",
      `The sign-in attempt expired (it has ${OIDC_FLOW_MAX_AGE_SECONDS / 60} minutes). ${restart}`,
    );
  return flow;
}

export function flowCookieHeader(value: string, secure: boolean): string {
  // SameSite=Lax, not Strict: the provider's redirect back to the callback is a cross-site navigation.
  return [
    `${OIDC_FLOW_COOKIE}=${value}`,
    "Path=/api/auth/oidc",
    `Max-Age=${OIDC_FLOW_MAX_AGE_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function clearedFlowCookieHeader(): string {
  return `${OIDC_FLOW_COOKIE}=; Path=/api/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`;
}

// ── Discovery ────────────────────────────────────────────────────────────────────────────────────

const configurations = new Map<string, Promise<client.Configuration>>();

/** The provider's configuration, discovered once per process (retried after a failure). */
function configuration(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer}\n${settings.clientId}`;
  let found = configurations.get(key);
  if (!found) {
    const issuer = new URL(settings.issuer);
    found = client
      .discovery(
        issuer,
        settings.clientId,
        undefined,
        client.ClientSecretBasic(settings.clientSecret),
        isLoopback(issuer) && issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        configurations.delete(key);
        throw new OidcError(
          502,
          "oidc_provider_unreachable",
          `The OpenID provider at ${settings.issuer} did not answer its discovery document (${explain(error)}). Check TANDEM_OIDC_ISSUER.`,
        );
      });
    configurations.set(key, found);
  }
  return found;
}

function explain(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${message}${cause}`.slice(0, 300);
}

// ── The two legs ─────────────────────────────────────────────────────────────────────────────────

/** The provider's authorization URL and the flow to keep in the cookie. */
export async function beginOidcSignIn(
  settings: OidcSettings,
  redirectUri: string,
  next: string,
  previousSession?: string,
  now = Date.now(),
): Promise<{ url: URL; flow: OidcFlow }> {
  const config = await configuration(settings);
  const flow: OidcFlow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    next,
    expires: now + OIDC_FLOW_MAX_AGE_SECONDS * 1000,
    ...(previousSession ? { previousSession } : {}),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: settings.scopes,
    response_type: "code",
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
  });
  return { url, flow };
}

/**
 * Checks the provider's answer at the callback (state, then the code exchanged with the PKCE
 * verifier, then the ID token's signature, issuer, audience, expiry and nonce) and answers who
 * signed in. The email comes from the ID token, or from the userinfo endpoint when the token has none.
 */
export async function finishOidcSignIn(
  settings: OidcSettings,
  callbackUrl: URL,
  flow: OidcFlow,
): Promise<OidcIdentity> {
  const config = await configuration(settings);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw callbackError(error);
  }
  const claims = tokens.claims();
  if (!claims) throw new OidcError(400, "oidc_invalid_response", "The provider sent no ID token.");
  let email = typeof claims.email === "string" ? claims.email : undefined;
  let verified = claims.email_verified;
  let name = typeof claims.name === "string" ? claims.name : undefined;
  if (email === undefined) {
    try {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = typeof info.email === "string" ? info.email : undefined;
      verified = info.email_verified;
      name ??= typeof info.name === "string" ? info.name : undefined;
    } catch (error) {
      throw new OidcError(
        400,
        "oidc_invalid_response",
        `The provider's userinfo could not be read (${explain(error)}).`,
      );
    }
  }
  return {
    issuer: config.serverMetadata().issuer,
    subject: claims.sub,
    email: email?.trim().toLowerCase() || undefined,
    // Some providers send the claim as a string.
    emailVerified: verified === true || verified === "true",
    name: name ?? (typeof claims.preferred_username === "string" ? claims.preferred_username : undefined),
  };
}

/** What went wrong at the callback, said plainly; always a 4xx (502 if the provider is unreachable). */
function callbackError(error: unknown): OidcError {
  if (error instanceof OidcError) return error;
  // openid-client wraps oauth4webapi's error ("invalid response encountered"): the detail is its cause.
  const message = explain(error);
  const code = (error as { code?: unknown }).code;
  const restart = "Start again from the sign-in page.";
  if (error instanceof client.AuthorizationResponseError)
    return new OidcError(
      400,
      "oidc_refused",
      `The provider refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}.`,
    );
  if (/"state"/.test(message))
    return new OidcError(
      400,
      "oidc_state_mismatch",
      `The provider's answer does not belong to this browser's sign-in attempt (state mismatch). ${restart}`,
    );
  if (/"nonce"/.test(message))
    return new OidcError(
      400,
      "oidc_nonce_mismatch",
      `The provider's ID token was not issued for this sign-in attempt (nonce mismatch). ${restart}`,
    );
  if (error instanceof client.ResponseBodyError)
    return new OidcError(
      400,
      "oidc_code_refused",
      `The provider refused the sign-in code (${error.error}: it was already used or has expired). ${restart}`,
    );
  if (message.includes("fetch failed") || code === "ECONNREFUSED")
    return new OidcError(502, "oidc_provider_unreachable", "The OpenID provider could not be reached.");
  return new OidcError(400, "oidc_invalid_response", `The provider's answer was refused: ${explain(error)}.`);
}
