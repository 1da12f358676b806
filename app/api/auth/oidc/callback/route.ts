// GET /api/auth/oidc/callback?code&state — where the OpenID provider sends the browser back
// (docs/security.md "Single sign-on"). openid-client checks the state against the flow cookie, trades
// the code with the PKCE verifier and validates the ID token (signature, issuer, audience, expiry,
// nonce); AccessService decides who that is in Tandem. Success: a new session as for a password
// sign-in (the browser's old one ended), an audit entry `sign_in` with method oidc, and a page that
// continues to `next`. Any failure: a clear 4xx page (JSON for scripts), and no session.

import { isTandemError } from "@/runtime/errors";
import {
  clearedFlowCookieHeader,
  finishOidcSignIn,
  getRuntime,
  OIDC_FLOW_COOKIE,
  OidcError,
  oidcCallbackUrl,
  oidcSettings,
  openFlow,
} from "@/runtime/runtime";
import { cookieValue } from "@/runtime/security/api-token";
import { handle } from "../../../_lib/http";
import { continuePage, OIDC_NOT_CONFIGURED, refusalResponse } from "../../../_lib/oidc-pages";
import { sessionCookie } from "../../../_lib/session";

export const dynamic = "force-dynamic";

export const GET = handle(
  async (request: Request) => {
    const settings = oidcSettings();
    if (!settings) return refusalResponse(request, OIDC_NOT_CONFIGURED);
    // The attempt is over whatever happens: its cookie goes.
    const headers = new Headers({ "set-cookie": clearedFlowCookieHeader() });
    try {
      const flow = openFlow(settings, cookieValue(request.headers.get("cookie"), OIDC_FLOW_COOKIE));
      const callbackUrl = new URL(oidcCallbackUrl(settings, request));
      callbackUrl.search = new URL(request.url).search;
      const identity = await finishOidcSignIn(settings, callbackUrl, flow);
      const runtime = await getRuntime();
      const previous =
        (await runtime.access.authenticate(request.headers)).sessionHash ?? flow.previousSession;
      const { user, session, linked, created } = await runtime.access.signInWithOidc(identity, {
        allowSignup: settings.allowSignup,
        ...(previous ? { previousSessionHash: previous } : {}),
      });
      await runtime.access.recordAudit(
        { type: "user", ...user },
        {
          projectId: null,
          action: "sign_in",
          target: user.id,
          details: {
            method: "oidc",
            issuer: identity.issuer,
            ...(linked ? { linked } : {}),
            ...(created ? { created } : {}),
          },
        },
      );
      headers.append("set-cookie", sessionCookie(request, session));
      return continuePage(flow.next, headers);
    } catch (error) {
      if (error instanceof OidcError || isTandemError(error)) return refusalResponse(request, error, headers);
      throw error;
    }
  },
  { public: true },
);
