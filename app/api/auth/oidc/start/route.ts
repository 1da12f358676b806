// GET /api/auth/oidc/start?next=/path — "Sign in with <provider>": redirects to the OpenID provider
// configured by TANDEM_OIDC_* (docs/security.md "Single sign-on") with state, nonce and a PKCE
// challenge, keeping them in a short-lived HttpOnly cookie for the callback. 404 when not
// configured, 409 before accounts are set up (the first admin is made at /setup).

import { ConflictError } from "@/runtime/errors";
import {
  beginOidcSignIn,
  flowCookieHeader,
  getRuntime,
  OidcError,
  oidcCallbackUrl,
  oidcSettings,
  sealFlow,
} from "@/runtime/runtime";
import { safeNextPath } from "@/runtime/security/api-token";
import { handle } from "../../../_lib/http";
import { OIDC_NOT_CONFIGURED, refusalResponse } from "../../../_lib/oidc-pages";
import { isHttps } from "../../../_lib/session";

export const dynamic = "force-dynamic";

export const GET = handle(
  async (request: Request) => {
    const settings = oidcSettings();
    if (!settings) return refusalResponse(request, OIDC_NOT_CONFIGURED);
    const runtime = await getRuntime();
    if (!(await runtime.access.accountsOn()))
      return refusalResponse(
        request,
        new ConflictError(
          "Accounts are not set up yet: create the first admin at /setup.",
          {},
          "accounts_not_set_up",
        ),
      );
    const next = safeNextPath(new URL(request.url).searchParams.get("next"));
    try {
      // The session this browser has now is ended once the sign-in succeeds (a new id, as for passwords).
      const previous = await runtime.access.authenticate(request.headers);
      const { url, flow } = await beginOidcSignIn(
        settings,
        oidcCallbackUrl(settings, request),
        next,
        previous.sessionHash,
      );
      const cookie = flowCookieHeader(sealFlow(settings, flow), isHttps(request));
      return new Response(null, { status: 303, headers: { location: url.href, "set-cookie": cookie } });
    } catch (error) {
      if (error instanceof OidcError) return refusalResponse(request, error);
      throw error;
    }
  },
  { public: true },
);
