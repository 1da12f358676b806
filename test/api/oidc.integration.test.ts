// Sign-in with an OpenID Connect provider (docs/security.md "Single sign-on") against a real
// provider: panva's oidc-provider on 127.0.0.1 (test/support/oidc-test-provider.mjs), driven over
// real HTTP — Tandem's start redirect, the provider's authorization endpoint and login interaction,
// the redirect back to Tandem's callback — then the session cookie used on API routes. Who may sign
// in (an invited user by verified email, then by issuer + subject; strangers only with sign-up on),
// and every refused callback (bad state, nonce mismatch, replayed code, unverified email, no flow)
// answering a clear 4xx with no session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../lib/db/database";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";
import { type OidcTestProvider, startOidcTestProvider } from "../support/oidc-test-provider.mjs";

const PASSWORD = "correct horse battery";
const CLIENT_ID = "tandem-studio";
const CLIENT_SECRET = "oidc-client-secret-never-logged-7731";

const env: Record<string, string> = {
  TANDEM_OIDC_CLIENT_ID: CLIENT_ID,
  TANDEM_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  TANDEM_OIDC_NAME: "Test IdP",
};
let provider: OidcTestProvider;
beforeAll(async () => {
  provider = await startOidcTestProvider();
  env.TANDEM_OIDC_ISSUER = provider.issuer;
});
afterAll(async () => provider?.close());

const fixture = testServerForFile(env);
const base = () => fixture.server.baseUrl;

beforeAll(() => {
  provider.registerClient({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${base()}/api/auth/oidc/callback`,
  });
  provider.setAccount("alice-sub", { email: "Alice@Example.com", email_verified: true, name: "Alice" });
  provider.setAccount("bob-sub", { email: "bob@example.com", email_verified: true, name: "Bob" });
  provider.setAccount("mallory-sub", { email: "carol@example.com", email_verified: false });
});

/** Cookies of one origin, as a browser keeps them (name → value; Max-Age=0 deletes). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === "")
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const sessionOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => /^tandem_session=([^;]+)/.exec(line)?.[1])
    .find(Boolean);

/** Tandem's start: the provider's authorization URL and the browser's jar with the flow cookie. */
async function start(next = "/", cookie?: string) {
  const jar = new CookieJar();
  const response = await fetch(`${base()}/api/auth/oidc/start?next=${encodeURIComponent(next)}`, {
    redirect: "manual",
    headers: cookie ? { cookie } : {},
  });
  expect(response.status, await response.clone().text()).toBe(303);
  jar.take(response);
  expect(jar.get("tandem_oidc_flow")).toBeTruthy();
  const location = new URL(response.headers.get("location") ?? "");
  expect(location.origin).toBe(provider.issuer);
  return { authorizationUrl: location, jar };
}

/** The browser at the provider: follows its redirects (keeping its cookies) back to Tandem's callback. */
async function atProvider(authorizationUrl: URL, subject: string): Promise<URL> {
  provider.signInAs(subject);
  const jar = new CookieJar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location)
      throw new Error(`The provider answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    url = new URL(location, url);
    if (url.href.startsWith(`${base()}/api/auth/oidc/callback`)) return url;
  }
  throw new Error("The provider never sent the browser back.");
}

/** Tandem's callback, as a script (JSON) unless `html`. */
function callback(url: URL, jar: CookieJar, options: { html?: boolean } = {}) {
  return fetch(url, {
    redirect: "manual",
    headers: {
      cookie: jar.header(),
      ...(options.html ? { accept: "text/html,application/xhtml+xml" } : {}),
    },
  });
}

/**
 * The whole round trip. `cookie` is the browser's SameSite=Strict session: sent to start (a same-site
 * navigation), not to the callback (the provider's cross-site redirect does not carry it).
 */
async function signInThroughProvider(subject: string, options: { cookie?: string } = {}) {
  const { authorizationUrl, jar } = await start("/projects", options.cookie);
  const back = await atProvider(authorizationUrl, subject);
  return callback(back, jar);
}

const as = (session: string) => ({ headers: { cookie: `tandem_session=${session}` } });

const state = { admin: "", aliceId: "" };

describe("sign-in with an OpenID Connect provider", () => {
  it("does not replace /setup: before the first user, start answers 409", async () => {
    const response = await fetch(`${base()}/api/auth/oidc/start`, { redirect: "manual" });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe("accounts_not_set_up");
  });

  it("sets up accounts and invites Alice by email", async () => {
    const setup = await requestJson(base(), "POST", "/api/auth/setup", {
      email: "admin@example.com",
      password: PASSWORD,
      name: "Admin",
    });
    expect(setup.status, JSON.stringify(setup.body)).toBe(201);
    state.admin = /tandem_session=([^;]+)/.exec(setup.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const alice = await requestJson<{ user: { id: string } }>(
      base(),
      "POST",
      "/api/users",
      { email: "alice@example.com", password: PASSWORD, name: "Alice" },
      as(state.admin),
    );
    expect(alice.status, JSON.stringify(alice.body)).toBe(201);
    state.aliceId = alice.body.user.id;
  });

  it("sends the browser to the provider with state, nonce and a PKCE challenge in a short-lived HttpOnly cookie", async () => {
    const response = await fetch(`${base()}/api/auth/oidc/start?next=/projects`, { redirect: "manual" });
    const url = new URL(response.headers.get("location") ?? "");
    for (const parameter of ["state", "nonce", "code_challenge"])
      expect(url.searchParams.get(parameter), parameter).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(url.searchParams.get("redirect_uri")).toBe(`${base()}/api/auth/oidc/callback`);
    expect(url.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email"]));
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^tandem_oidc_flow=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // The client secret goes to the provider's token endpoint only.
    expect(`${url.href} ${cookie}`).not.toContain(CLIENT_SECRET);
  });

  it("signs in an existing user whose verified email matches, ending the session the browser had", async () => {
    const password = await requestJson(base(), "POST", "/api/auth/login", {
      email: "alice@example.com",
      password: PASSWORD,
    });
    const previous = /tandem_session=([^;]+)/.exec(password.headers.get("set-cookie") ?? "")?.[1] ?? "";
    expect(previous).not.toBe("");

    const response = await signInThroughProvider("alice-sub", { cookie: `tandem_session=${previous}` });
    const page = await response.text();
    expect(response.status, page).toBe(200);
    expect(page).toContain('http-equiv="refresh" content="0;url=/projects"');
    const session = sessionOf(response);
    expect(session).toBeTruthy();
    expect(session).not.toBe(previous);
    expect(response.headers.getSetCookie().join("\n")).toMatch(/tandem_oidc_flow=;.*Max-Age=0/);

    const who = await requestJson<{ user: { id: string; email: string; admin: boolean } }>(
      base(),
      "GET",
      "/api/auth/session",
      undefined,
      as(session as string),
    );
    expect(who.body.user).toMatchObject({ id: state.aliceId, email: "alice@example.com", admin: false });
    expect((await requestJson(base(), "GET", "/api/projects", undefined, as(session as string))).status).toBe(
      200,
    );
    // The session the browser had is over (no fixation).
    expect((await requestJson(base(), "GET", "/api/projects", undefined, as(previous))).status).toBe(401);
  });

  it("knows a linked account by issuer and subject afterwards, even when its email changed", async () => {
    provider.setAccount("alice-sub", { email: "alice.new@corp.example", email_verified: false });
    const response = await signInThroughProvider("alice-sub");
    expect(response.status, await response.text()).toBe(200);
    const who = await requestJson<{ user: { id: string } }>(
      base(),
      "GET",
      "/api/auth/session",
      undefined,
      as(sessionOf(response) as string),
    );
    expect(who.body.user.id).toBe(state.aliceId);
  });

  it("refuses an unknown email without sign-up, naming the email to invite (JSON and page)", async () => {
    const response = await signInThroughProvider("bob-sub");
    expect(response.status).toBe(403);
    expect(sessionOf(response)).toBeUndefined();
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("oidc_not_invited");
    expect(body.error).toContain("Ask an admin to invite bob@example.com");

    const { authorizationUrl, jar } = await start();
    const page = await callback(await atProvider(authorizationUrl, "bob-sub"), jar, { html: true });
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Ask an admin to invite bob@example.com");
    expect(html).toContain('href="/login"');
    expect(sessionOf(page)).toBeUndefined();
  });

  it("never links an unverified email, even one that matches a user", async () => {
    const carol = await requestJson(
      base(),
      "POST",
      "/api/users",
      { email: "carol@example.com", password: PASSWORD, name: "Carol" },
      as(state.admin),
    );
    expect(carol.status).toBe(201);
    const response = await signInThroughProvider("mallory-sub");
    expect(response.status).toBe(403);
    expect(sessionOf(response)).toBeUndefined();
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("oidc_email_unverified");
    expect(body.error).toContain("carol@example.com");
    // Not linked either: once the provider verifies it, that account links and signs in as Carol.
    provider.setAccount("mallory-sub", { email: "carol@example.com", email_verified: true });
    const later = await signInThroughProvider("mallory-sub");
    expect(later.status).toBe(200);
  });

  it("refuses a callback whose state is not this browser's", async () => {
    const { authorizationUrl, jar } = await start();
    const back = await atProvider(authorizationUrl, "alice-sub");
    back.searchParams.set("state", "forged-state-value-000000000000000");
    const response = await callback(back, jar);
    expect(response.status).toBe(400);
    expect(sessionOf(response)).toBeUndefined();
    expect(((await response.json()) as { code: string }).code).toBe("oidc_state_mismatch");
  });

  it("refuses a callback without the flow cookie, and one whose cookie was tampered with", async () => {
    const { authorizationUrl, jar } = await start();
    const back = await atProvider(authorizationUrl, "alice-sub");
    const missing = await callback(back, new CookieJar());
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { code: string }).code).toBe("oidc_no_flow");
    const flow = jar.get("tandem_oidc_flow") ?? "";
    const tampered = await fetch(back, {
      redirect: "manual",
      headers: { cookie: `tandem_oidc_flow=${flow.slice(0, -4)}AAAA` },
    });
    expect(tampered.status).toBe(400);
    expect(((await tampered.json()) as { code: string }).code).toBe("oidc_bad_flow");
    expect(sessionOf(tampered)).toBeUndefined();
  });

  it("refuses an ID token issued for another nonce", async () => {
    const { authorizationUrl, jar } = await start();
    authorizationUrl.searchParams.set("nonce", "a-nonce-this-browser-never-made-0000");
    const response = await callback(await atProvider(authorizationUrl, "alice-sub"), jar);
    expect(response.status).toBe(400);
    expect(sessionOf(response)).toBeUndefined();
    expect(((await response.json()) as { code: string }).code).toBe("oidc_nonce_mismatch");
  });

  it("refuses a replayed code", async () => {
    const { authorizationUrl, jar } = await start();
    const back = await atProvider(authorizationUrl, "alice-sub");
    const first = await callback(back, jar);
    expect(first.status).toBe(200);
    const replay = await callback(back, jar);
    expect(replay.status).toBe(400);
    expect(sessionOf(replay)).toBeUndefined();
    expect(((await replay.json()) as { code: string }).code).toBe("oidc_code_refused");
  });

  it("refuses a provider's denial", async () => {
    const { authorizationUrl, jar } = await start();
    const back = await atProvider(authorizationUrl, "nobody-sub");
    const response = await callback(back, jar);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("oidc_refused");
  });

  it("with TANDEM_OIDC_ALLOW_SIGNUP=true, makes a stranger a non-admin user with no projects", async () => {
    await fixture.server.restart({ TANDEM_OIDC_ALLOW_SIGNUP: "true" });
    const response = await signInThroughProvider("bob-sub");
    expect(response.status, await response.text()).toBe(200);
    const session = sessionOf(response) as string;
    const who = await requestJson<{ user: { email: string; name: string; admin: boolean } }>(
      base(),
      "GET",
      "/api/auth/session",
      undefined,
      as(session),
    );
    expect(who.body.user).toMatchObject({ email: "bob@example.com", name: "Bob", admin: false });
    const projects = await requestJson<{ projects: unknown[] }>(
      base(),
      "GET",
      "/api/projects",
      undefined,
      as(session),
    );
    expect(projects.status).toBe(200);
    expect(projects.body.projects).toEqual([]);
    expect((await requestJson(base(), "POST", "/api/users", {}, as(session))).status).toBe(403);
    // An unverified email still never gets in.
    provider.setAccount("dave-sub", { email: "dave@example.com", email_verified: false });
    const dave = await signInThroughProvider("dave-sub");
    expect(dave.status).toBe(403);
    expect(sessionOf(dave)).toBeUndefined();
  });

  it("never prints the client secret", () => {
    expect(fixture.server.output()).not.toContain(CLIENT_SECRET);
  });

  it("recorded each sign-in in the audit log and linked each provider account once (read after a stop)", async () => {
    await fixture.server.stop();
    const database = await openDatabase(
      fixture.pgliteDir
        ? { kind: "pglite", dataDir: fixture.pgliteDir }
        : { kind: "postgres", url: fixture.databaseUrl ?? "" },
      { migrate: false },
    );
    try {
      const signIns = await database.sql.query<{
        actor_name: string;
        project_id: string | null;
        details: unknown;
      }>("SELECT actor_name, project_id, details FROM audit_log WHERE action = 'sign_in' ORDER BY at, id");
      const details = (row: { details: unknown }) =>
        (typeof row.details === "string" ? JSON.parse(row.details) : row.details) as Record<string, unknown>;
      const oidc = signIns.filter((row) => details(row).method === "oidc");
      // Alice linked, Alice by subject, Carol linked once verified, Alice (the code later replayed), Bob signed up.
      expect(oidc.map((row) => row.actor_name)).toEqual(["Alice", "Alice", "Carol", "Alice", "Bob"]);
      expect(oidc.map((row) => [details(row).linked ?? false, details(row).created ?? false])).toEqual([
        [true, false],
        [false, false],
        [true, false],
        [false, false],
        [true, true],
      ]);
      expect(oidc.every((row) => row.project_id === null && details(row).issuer === provider.issuer)).toBe(
        true,
      );
      expect(
        signIns.filter((row) => details(row).method === "password").map((row) => row.actor_name),
      ).toEqual(["Alice"]);
      const identities = await database.sql.query<{ subject: string; email: string }>(
        `SELECT i.subject, u.email FROM user_identities i JOIN users u ON u.id = i.user_id ORDER BY i.subject`,
      );
      expect(identities).toEqual([
        { subject: "alice-sub", email: "alice@example.com" },
        { subject: "bob-sub", email: "bob@example.com" },
        { subject: "mallory-sub", email: "carol@example.com" },
      ]);
    } finally {
      await database.close();
    }
  });
});
