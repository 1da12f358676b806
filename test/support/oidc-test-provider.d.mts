// Types of oidc-test-provider.mjs (plain JavaScript: oidc-provider ships no types).
export interface OidcAccountClaims {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface OidcTestProvider {
  readonly issuer: string;
  /** Configures the provider with its one confidential client (call before the first sign-in). */
  registerClient(client: { clientId: string; clientSecret: string; redirectUri: string }): void;
  setAccount(subject: string, claims: OidcAccountClaims): void;
  signInAs(subject: string | undefined): void;
  close(): Promise<void>;
}

export function startOidcTestProvider(): Promise<OidcTestProvider>;
