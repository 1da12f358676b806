// A real OpenID Connect provider for tests: panva's `oidc-provider` on 127.0.0.1 with one static
// confidential client and accounts the test defines. Its login and consent are answered by the
// test's choice of account (`signInAs`) instead of a form: the interaction is finished with that
// account and a grant for the requested scopes, exactly as a provider's own login page would. It
// listens at once (so its issuer URL can go into the server's environment) and is configured with
// the client's redirect URI once that server's port is known (`registerClient`).
// Plain JavaScript (oidc-provider ships no types); the types are in oidc-test-provider.d.mts.
import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import Provider from "oidc-provider";

export async function startOidcTestProvider() {
  const accounts = new Map();
  let nextAccount;
  let provider;
  let callback;
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

  function registerClient({ clientId, clientSecret, redirectUri }) {
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
      jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test", use: "sig", alg: "RS256" }] },
      cookies: { keys: ["oidc-test-provider-cookie-key"] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      async findAccount(_ctx, id) {
        const account = accounts.get(id);
        if (!account) return undefined;
        return { accountId: id, claims: async () => ({ sub: id, ...account }) };
      },
    });
    provider.on("server_error", (_ctx, error) => console.error("[oidc-test-provider]", error));
    callback = provider.callback();
  }

  async function interaction(req, res) {
    const details = await provider.interactionDetails(req, res);
    const accountId = nextAccount;
    if (!accountId || !accounts.has(accountId)) {
      await provider.interactionFinished(req, res, { error: "access_denied" });
      return;
    }
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on("request", (req, res) => {
    if (!provider) {
      res.statusCode = 503;
      res.end("no client registered yet");
      return;
    }
    if (req.url?.startsWith("/interaction/")) {
      interaction(req, res).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    registerClient,
    /** Adds or replaces an account: its subject and the claims the provider will vouch for. */
    setAccount(subject, claims) {
      accounts.set(subject, claims);
    },
    /** The account the next login interaction signs in as. */
    signInAs(subject) {
      nextAccount = subject;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
