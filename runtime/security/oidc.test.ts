// The OIDC settings read from the environment, the callback URL they imply, and the signed flow
// cookie (state, nonce, PKCE verifier) that ties a provider's answer to the browser that asked.
import { describe, expect, it } from "vitest";
import { OidcError, openFlow, sealFlow } from "./oidc";
import { oidcCallbackUrl, oidcSettings } from "./oidc-settings";

const ENV = {
  TANDEM_OIDC_ISSUER: "https://login.example.com/realms/team",
  TANDEM_OIDC_CLIENT_ID: "tandem",
  TANDEM_OIDC_CLIENT_SECRET: "s3cret",
};

describe("oidcSettings", () => {
  it("is off unless issuer, client id and secret are all set", () => {
    expect(oidcSettings({})).toBeNull();
    expect(oidcSettings({ ...ENV, TANDEM_OIDC_CLIENT_SECRET: " " })).toBeNull();
    expect(oidcSettings({ ...ENV, TANDEM_OIDC_ISSUER: "not a url" })).toBeNull();
    const settings = oidcSettings(ENV);
    expect(settings).toMatchObject({
      issuer: ENV.TANDEM_OIDC_ISSUER,
      clientId: "tandem",
      allowSignup: false,
    });
    expect(settings?.name).toBe("single sign-on");
  });

  it("accepts plain http only for a provider on this machine", () => {
    expect(oidcSettings({ ...ENV, TANDEM_OIDC_ISSUER: "http://idp.example.com" })).toBeNull();
    expect(oidcSettings({ ...ENV, TANDEM_OIDC_ISSUER: "http://127.0.0.1:8080/realms/x" })).not.toBeNull();
  });

  it("reads the name, the extra scopes and the sign-up switch", () => {
    const settings = oidcSettings({
      ...ENV,
      TANDEM_OIDC_NAME: "Okta",
      TANDEM_OIDC_SCOPES: "groups, offline_access email",
      TANDEM_OIDC_ALLOW_SIGNUP: "true",
    });
    expect(settings?.name).toBe("Okta");
    expect(settings?.scopes).toBe("openid email profile groups offline_access");
    expect(settings?.allowSignup).toBe(true);
    expect(oidcSettings({ ...ENV, TANDEM_OIDC_ALLOW_SIGNUP: "no" })?.allowSignup).toBe(false);
  });

  it("derives the callback URL from TANDEM_PUBLIC_URL, else the proxy's headers, else the request", () => {
    const request = (headers: Record<string, string>) =>
      new Request("http://127.0.0.1:3000/api/auth/oidc/start", { headers });
    const plain = oidcSettings(ENV);
    if (!plain) throw new Error("configured");
    expect(oidcCallbackUrl(plain, request({ host: "127.0.0.1:3000" }))).toBe(
      "http://127.0.0.1:3000/api/auth/oidc/callback",
    );
    expect(
      oidcCallbackUrl(
        plain,
        request({ "x-forwarded-proto": "https", "x-forwarded-host": "tandem.example.com" }),
      ),
    ).toBe("https://tandem.example.com/api/auth/oidc/callback");
    const fixed = oidcSettings({ ...ENV, TANDEM_PUBLIC_URL: "https://studio.example.com/" });
    if (!fixed) throw new Error("configured");
    expect(oidcCallbackUrl(fixed, request({ host: "evil.example" }))).toBe(
      "https://studio.example.com/api/auth/oidc/callback",
    );
  });
});

describe("the flow cookie", () => {
  const settings = oidcSettings(ENV);
  if (!settings) throw new Error("configured");
  const flow = { state: "st", nonce: "no", verifier: "ve", next: "/projects", expires: 2_000 };
  const codeOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(OidcError);
      return `${(error as OidcError).status} ${(error as OidcError).code}`;
    }
    return "accepted";
  };

  it("opens what it sealed, before it expires", () => {
    expect(openFlow(settings, sealFlow(settings, flow), 1_999)).toEqual(flow);
    const withSession = { ...flow, previousSession: "ab".repeat(32) };
    expect(openFlow(settings, sealFlow(settings, withSession), 0).previousSession).toBe("ab".repeat(32));
    expect(codeOf(() => openFlow(settings, sealFlow(settings, flow), 2_000))).toBe("400 oidc_expired");
  });

  it("refuses a missing cookie, a changed payload and another secret's signature", () => {
    const sealed = sealFlow(settings, flow);
    expect(codeOf(() => openFlow(settings, undefined, 0))).toBe("400 oidc_no_flow");
    const [, mac] = sealed.split(".");
    const forged = `${Buffer.from(JSON.stringify({ ...flow, state: "attacker" })).toString("base64url")}.${mac}`;
    expect(codeOf(() => openFlow(settings, forged, 0))).toBe("400 oidc_bad_flow");
    const other = oidcSettings({ ...ENV, TANDEM_OIDC_CLIENT_SECRET: "other" });
    if (!other) throw new Error("configured");
    expect(codeOf(() => openFlow(other, sealed, 0))).toBe("400 oidc_bad_flow");
    expect(codeOf(() => openFlow(settings, "garbage", 0))).toBe("400 oidc_bad_flow");
  });

  it("carries no client secret", () => {
    expect(Buffer.from(sealFlow(settings, flow).split(".")[0] ?? "", "base64url").toString()).not.toContain(
      "s3cret",
    );
  });
});
