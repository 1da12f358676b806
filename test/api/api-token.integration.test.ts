// The optional API token (TANDEM_API_TOKEN): every route of the real server, found by walking
// app/**/route.ts, answers 401 without it; the bearer token and the browser session cookie (set by
// /api/auth/login, and what EventSource sends) both get in; /api/health stays open but says less.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";
import { routeFiles } from "../support/routes";
import { connectSse } from "../support/sse";

const TOKEN = "test-api-token-7d1c";
const fixture = testServerForFile({ TANDEM_API_TOKEN: TOKEN });
const authorised = { authorization: `Bearer ${TOKEN}` };

const WRONG_CREDENTIALS: Record<string, string>[] = [
  {},
  { authorization: "Bearer wrong-token" },
  { authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString("base64")}` },
  { cookie: "tandem_session=forged" },
  { cookie: `tandem_session=${TOKEN}` },
];

/** Routes that are open on purpose: liveness, and the ways in and out (single sign-on included). */
const PUBLIC_ROUTES = new Set([
  "/api/health",
  "/api/auth/login",
  "/api/auth/logout",
  "/api/auth/session",
  "/api/auth/oidc/start",
  "/api/auth/oidc/callback",
]);

describe("with TANDEM_API_TOKEN set", () => {
  const routes = routeFiles();

  it("finds the route files (so the walk below cannot pass by finding nothing)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const route of routes) expect(route.methods.length, route.file).toBeGreaterThan(0);
    expect(routes.map((route) => route.urlPath)).toContain(
      "/threads/00000000-0000-4000-8000-000000000000/variables/00000000-0000-4000-8000-000000000000",
    );
  });

  it("refuses every method of every route without the token, with a JSON 401", async () => {
    const checked: string[] = [];
    for (const route of routes) {
      if (PUBLIC_ROUTES.has(route.urlPath)) continue;
      for (const method of route.methods) {
        for (const headers of WRONG_CREDENTIALS) {
          const response = await requestJson<{ code: string; error: string }>(
            fixture.server.baseUrl,
            method,
            route.urlPath,
            method === "GET" || method === "DELETE" ? undefined : { name: "x" },
            { headers },
          );
          expect(response.status, `${method} ${route.urlPath} ${JSON.stringify(headers)}`).toBe(401);
          expect(response.body.code).toBe("unauthorized");
          expect(response.body.error).toMatch(/API token/);
          expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tandem"');
        }
        checked.push(`${method} ${route.urlPath}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(30);
  });

  it("leaves the single sign-on routes open, and they answer 404 with no provider configured", async () => {
    for (const path of ["/api/auth/oidc/start", "/api/auth/oidc/callback"]) {
      const response = await requestJson<{ code: string }>(fixture.server.baseUrl, "GET", path);
      expect(response.status, path).toBe(404);
    }
  });

  it("lets the bearer token in", async () => {
    const created = await requestJson<{ id: string }>(
      fixture.server.baseUrl,
      "POST",
      "/api/projects",
      { name: "with token" },
      { headers: authorised },
    );
    expect(created.status).toBe(201);
    const listed = await requestJson<{ projects: unknown[] }>(
      fixture.server.baseUrl,
      "GET",
      "/api/projects",
      undefined,
      {
        headers: authorised,
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.projects.length).toBeGreaterThan(0);
  });

  it("keeps /api/health open, without saying which database it uses", async () => {
    const open = await requestJson<Record<string, unknown>>(fixture.server.baseUrl, "GET", "/api/health");
    expect(open.status).toBe(200);
    expect(open.body).toEqual({ ok: true });
    const full = await requestJson<Record<string, unknown>>(
      fixture.server.baseUrl,
      "GET",
      "/api/health",
      undefined,
      {
        headers: authorised,
      },
    );
    expect(full.body.database).toBeDefined();
  });

  it("signs a browser in with an HttpOnly, SameSite=Strict cookie that the API and SSE accept", async () => {
    const refused = await fetch(`${fixture.server.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "nope", next: "/projects" }),
      redirect: "manual",
    });
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/login?error=1&next=%2Fprojects");
    expect(refused.headers.get("set-cookie")).toBeNull();

    const crossSite = await fetch(`${fixture.server.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: new URLSearchParams({ token: TOKEN }),
      redirect: "manual",
    });
    expect(crossSite.headers.get("location")).toMatch(/^\/login\?error=1/);
    expect(crossSite.headers.get("set-cookie")).toBeNull();

    const login = await fetch(`${fixture.server.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: fixture.server.baseUrl },
      body: new URLSearchParams({ token: TOKEN, next: "//evil.example/" }),
      redirect: "manual",
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/");
    const setCookie = login.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^tandem_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie.split(";")[0] ?? "";

    const project = await requestJson<{ id: string }>(
      fixture.server.baseUrl,
      "POST",
      "/api/projects",
      {
        name: "cookie",
        definitions: {
          agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
          prompts: [{ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo", includeChat: true }],
          models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "hello there" }] }],
          tools: [],
        },
      },
      { headers: { cookie } },
    );
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const thread = await requestJson<{ threadId: string }>(
      fixture.server.baseUrl,
      "POST",
      "/api/threads",
      { project_id: project.body.id, agent_id: "assistant", message: "hi" },
      { headers: { cookie } },
    );
    expect(thread.status).toBe(201);
    const stream = await connectSse(`${fixture.server.baseUrl}/api/threads/${thread.body.threadId}/events`, {
      cookie,
    });
    try {
      await stream.waitFor((frame) => frame.event === "message" && frame.data.includes("hello there"));
    } finally {
      stream.close();
    }
    await expect(
      connectSse(`${fixture.server.baseUrl}/api/threads/${thread.body.threadId}/events`),
    ).rejects.toThrow(/401/);

    const json = await requestJson<{ ok: boolean }>(fixture.server.baseUrl, "POST", "/api/auth/login", {
      token: "bad",
    });
    expect(json.status).toBe(401);
    const logout = await fetch(`${fixture.server.baseUrl}/api/auth/logout`, { method: "POST" });
    expect(logout.headers.get("set-cookie")).toMatch(/^tandem_session=; .*Max-Age=0/);
  });

  it("sends a browser without a session to /login, and lets it in with one", async () => {
    const page = await fetch(`${fixture.server.baseUrl}/projects/abc?tab=runs`, { redirect: "manual" });
    expect([307, 308]).toContain(page.status);
    expect(new URL(page.headers.get("location") ?? "", fixture.server.baseUrl).pathname).toBe("/login");
    expect(new URL(page.headers.get("location") ?? "", fixture.server.baseUrl).searchParams.get("next")).toBe(
      "/projects/abc?tab=runs",
    );
    const login = await fetch(`${fixture.server.baseUrl}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("API token");

    const signIn = await requestJson(fixture.server.baseUrl, "POST", "/api/auth/login", { token: TOKEN });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const home = await fetch(`${fixture.server.baseUrl}/`, { headers: { cookie }, redirect: "manual" });
    expect(home.status).toBe(200);
  });
});
