// Accounts, roles, keys, credentials and the audit log against the real server (API.md "Accounts,
// roles, keys, credentials, audit"; docs/security.md). One server, one story: open before the first
// user; setup; sign-in (new session id each time, revocable, throttled); the route × role matrix over
// every route file against the policy table; keys scoped to their project and scopes; credentials
// used by a provider call and nowhere else; CSRF; the audit log.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Access, policyFor, roleAtLeast, scopesAllow } from "../../lib/access/policy";
import type { KeyScope, ProjectRole } from "../../lib/contracts/access";
import { type FakeOpenAIServer, startFakeOpenAIServer, textReply } from "../support/fake-openai-server";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";
import { PLACEHOLDER_ID, routeFiles } from "../support/routes";

const SECRETS_KEY = "5e".repeat(32);
const CREDENTIAL_VALUE = "sk-credential-never-leak-4242";
const PASSWORD = "correct horse battery";
const fixture = testServerForFile({ TANDEM_SECRETS_KEY: SECRETS_KEY });
let provider: FakeOpenAIServer;

beforeAll(async () => {
  provider = await startFakeOpenAIServer(() =>
    textReply("m", ["Hello ", "from the provider"], { prompt_tokens: 3, completion_tokens: 2 }),
  );
});
afterAll(async () => provider?.close());

type Headers = Record<string, string>;
const call = <Body = Record<string, unknown>>(
  method: string,
  url: string,
  body?: unknown,
  headers: Headers = {},
) => requestJson<Body>(fixture.server.baseUrl, method, url, body, { headers });

/** Like `call`, but an event stream (a thread's events, an MCP GET) is answered by its status alone. */
async function probe(method: string, url: string, body: unknown, headers: Headers) {
  const response = await fetch(`${fixture.server.baseUrl}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, body: {} as Record<string, unknown> };
  }
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text: text.slice(0, 200) };
  }
  return { status: response.status, body: parsed };
}

function cookieFrom(response: { headers: globalThis.Headers }): string {
  const setCookie = response.headers.get("set-cookie") ?? "";
  const match = /tandem_session=([^;]*)/.exec(setCookie);
  expect(match?.[1], setCookie).toBeTruthy();
  return `tandem_session=${match?.[1]}`;
}

function scriptedBundle() {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [{ name: "chat", toolDescription: "c", prompt: "Be brief.", model: "demo", includeChat: true }],
    models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "ok" }] }],
  };
}

const state = {
  admin: { cookie: "", id: "" },
  users: {} as Record<string, { id: string; cookie: string }>,
  projectA: "",
  projectB: "",
  threadA: "",
};
const as = (cookie: string): Headers => ({ cookie });

async function signIn(email: string, password = PASSWORD): Promise<string> {
  const response = await call("POST", "/api/auth/login", { email, password });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return cookieFrom(response);
}

describe("accounts", () => {
  it("changes nothing before the first user: no sign-in needed", async () => {
    expect((await call("GET", "/api/projects")).status).toBe(200);
    expect((await call("GET", "/api/auth/session")).body).toEqual({
      accounts: false,
      token_required: false,
      user: null,
    });
  });

  it("sets up the first user as an admin, once, signed in with an HttpOnly SameSite cookie", async () => {
    const invalid = await call("POST", "/api/auth/setup", { email: "nope", password: "short", name: "" });
    expect(invalid.status).toBe(400);
    expect(String(invalid.body.error)).toMatch(/email|password|name/);
    const setup = await call<{ user: { id: string; admin: boolean; email: string } }>(
      "POST",
      "/api/auth/setup",
      {
        email: "Admin@Example.com",
        password: PASSWORD,
        name: "Ada Admin",
      },
    );
    expect(setup.status, JSON.stringify(setup.body)).toBe(201);
    expect(setup.body.user).toMatchObject({ email: "admin@example.com", name: "Ada Admin", admin: true });
    const setCookie = setup.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    state.admin = { cookie: cookieFrom(setup), id: setup.body.user.id };
    const again = await call("POST", "/api/auth/setup", {
      email: "b@example.com",
      password: PASSWORD,
      name: "B",
    });
    expect(again.status).toBe(409);
    const anonymous = await call("GET", "/api/projects");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("unauthorized");
    expect((await call("GET", "/api/health")).status).toBe(200);
    expect((await call("GET", "/api/projects", undefined, as(state.admin.cookie))).status).toBe(200);
  });

  it("lets admins create users, and nobody else", async () => {
    for (const name of ["owner", "editor", "runner", "viewer", "outsider", "locked"]) {
      const created = await call<{ user: { id: string; admin: boolean } }>(
        "POST",
        "/api/users",
        { email: `${name}@example.com`, password: PASSWORD, name },
        as(state.admin.cookie),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.user.admin).toBe(false);
      expect(JSON.stringify(created.body)).not.toContain(PASSWORD);
      state.users[name] = { id: created.body.user.id, cookie: "" };
    }
    const taken = await call(
      "POST",
      "/api/users",
      { email: "owner@example.com", password: PASSWORD, name: "x" },
      as(state.admin.cookie),
    );
    expect(taken.status).toBe(409);
    for (const name of ["owner", "editor", "runner", "viewer", "outsider"]) {
      const user = state.users[name];
      if (user) user.cookie = await signIn(`${name}@example.com`);
    }
    const refused = await call(
      "POST",
      "/api/users",
      { email: "x@example.com", password: PASSWORD, name: "x" },
      as(state.users.owner?.cookie ?? ""),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");
  });

  it("gives a new session id on every sign-in, ends the old one, and revokes on sign-out", async () => {
    const first = await signIn("runner@example.com");
    const second = await call(
      "POST",
      "/api/auth/login",
      { email: "runner@example.com", password: PASSWORD },
      as(first),
    );
    const renewed = cookieFrom(second);
    expect(renewed).not.toBe(first);
    // The session the browser had (a planted one, say) is over.
    expect((await call("GET", "/api/projects", undefined, as(first))).status).toBe(401);
    expect((await call("GET", "/api/projects", undefined, as(renewed))).status).toBe(200);
    expect((await call("POST", "/api/auth/logout", undefined, as(renewed))).status).toBe(200);
    // Replaying the cookie after sign-out does not work: the session is gone on the server.
    expect((await call("GET", "/api/projects", undefined, as(renewed))).status).toBe(401);
    expect(
      (await call("GET", "/api/auth/session", undefined, as(state.users.runner?.cookie ?? ""))).body,
    ).toMatchObject({
      accounts: true,
      user: { email: "runner@example.com", admin: false },
    });
  });

  it("answers 429 after repeated failed sign-ins, even to the right password", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await call("POST", "/api/auth/login", { email: "locked@example.com", password: `wrong-${i}` }))
          .status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const locked = await call("POST", "/api/auth/login", { email: "locked@example.com", password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account is not locked by it.
    expect(
      (await call("POST", "/api/auth/login", { email: "viewer@example.com", password: PASSWORD })).status,
    ).toBe(200);
  });
});

describe("roles", () => {
  it("makes the creator the owner and lists only a user's own projects", async () => {
    const a = await call<{ id: string }>(
      "POST",
      "/api/projects",
      { name: "A", definitions: scriptedBundle() },
      as(state.admin.cookie),
    );
    const b = await call<{ id: string }>(
      "POST",
      "/api/projects",
      { name: "B", definitions: scriptedBundle() },
      as(state.admin.cookie),
    );
    expect(a.status).toBe(201);
    state.projectA = a.body.id;
    state.projectB = b.body.id;
    for (const role of ["owner", "editor", "runner", "viewer"] as const) {
      const put = await call<{ members: { user_id: string; role: string }[] }>(
        "PUT",
        `/api/projects/${state.projectA}/members/${state.users[role]?.id}`,
        { role },
        as(state.admin.cookie),
      );
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.members.find((member) => member.user_id === state.users[role]?.id)?.role).toBe(role);
    }
    const badRole = await call(
      "PUT",
      `/api/projects/${state.projectA}/members/${state.users.outsider?.id}`,
      { role: "god" },
      as(state.admin.cookie),
    );
    expect(badRole.status).toBe(400);
    const ids = async (cookie: string) =>
      (
        await call<{ projects: { id: string }[] }>("GET", "/api/projects", undefined, as(cookie))
      ).body.projects.map((p) => p.id);
    expect(await ids(state.users.viewer?.cookie ?? "")).toEqual([state.projectA]);
    expect(await ids(state.users.outsider?.cookie ?? "")).toEqual([]);
    expect(await ids(state.admin.cookie)).toEqual(expect.arrayContaining([state.projectA, state.projectB]));
    // The editor creates a project: they own it, and see it.
    const mine = await call<{ id: string }>(
      "POST",
      "/api/projects",
      { name: "mine" },
      as(state.users.editor?.cookie ?? ""),
    );
    expect(mine.status).toBe(201);
    const members = await call<{ members: { user_id: string; role: string }[] }>(
      "GET",
      `/api/projects/${mine.body.id}/members`,
      undefined,
      as(state.users.editor?.cookie ?? ""),
    );
    expect(members.body.members).toEqual([
      expect.objectContaining({ user_id: state.users.editor?.id, role: "owner" }),
    ]);
    const thread = await call<{ threadId: string }>(
      "POST",
      "/api/threads",
      { project_id: state.projectA, agent_id: "assistant", message: "hi" },
      as(state.users.runner?.cookie ?? ""),
    );
    expect(thread.status, JSON.stringify(thread.body)).toBe(201);
    state.threadA = thread.body.threadId;
  });

  /** Each route file's URL with project A's ids (or thread A's) in its segments. */
  function urlFor(pattern: string, method: string): { url: string; body?: unknown } {
    const threadRoute = /^\/(api\/)?threads\/\[id\]/.test(pattern);
    let url = pattern
      .replace("[id]", threadRoute ? state.threadA : state.projectA)
      .replace("[[...path]]", "x")
      .replace("[...path]", "notes.md")
      .replace("[version]", "1")
      .replace("[userId]", state.users.outsider?.id ?? PLACEHOLDER_ID)
      .replace("[name]", "cred")
      .replace(/\[\w+\]/g, PLACEHOLDER_ID);
    if (pattern === "/api/approvals" || (pattern === "/api/threads" && method === "GET"))
      url += `?project_id=${state.projectA}`;
    if (pattern === "/api/threads/diff") url += `?a=${state.threadA}&b=${state.threadA}`;
    if (pattern === "/api/approvals/[approvalId]") return { url, body: { decision: "deny" } };
    if (pattern === "/api/threads" && method === "POST")
      return { url, body: { project_id: state.projectA, agent_id: "no-such-agent" } };
    return { url, ...(method === "GET" || method === "DELETE" ? {} : { body: {} }) };
  }

  type Who = { label: string; headers: Headers; role: ProjectRole | null; scopes?: KeyScope[] };

  function allowed(access: Access, who: Who): boolean {
    switch (access.kind) {
      case "public":
      case "signed_in":
        return true;
      case "user":
        return who.scopes === undefined;
      case "admin":
        return false;
      case "project":
        return who.scopes ? scopesAllow(who.scopes, access) : roleAtLeast(who.role, access.role);
    }
  }

  it("checks every route of app/ against the policy table for every role (401 / 403 / allowed)", {
    timeout: 120_000,
  }, async () => {
    const routes = routeFiles();
    const readKey = await call<{ secret: string }>(
      "POST",
      `/api/projects/${state.projectA}/keys`,
      { name: "matrix", scopes: ["read"] },
      as(state.admin.cookie),
    );
    expect(readKey.status).toBe(201);
    const principals: Who[] = [
      ...(["outsider", "viewer", "runner", "editor", "owner"] as const).map((name) => ({
        label: name,
        headers: as(state.users[name]?.cookie ?? ""),
        role: name === "outsider" ? null : name,
      })),
      {
        label: "read key",
        headers: { authorization: `Bearer ${readKey.body.secret}` },
        role: null,
        scopes: ["read"],
      },
    ];
    const checked: string[] = [];
    for (const route of routes) {
      for (const method of route.methods) {
        const entry = policyFor(method, route.pattern);
        expect(entry, `${method} ${route.pattern} has no row in lib/access/policy.ts`).toBeDefined();
        if (!entry || entry.access.kind === "public") continue;
        const { url, body } = urlFor(route.pattern, method);
        const anonymous = await call(method, url, body);
        expect(anonymous.status, `anonymous ${method} ${url}`).toBe(401);
        // The principals at once (the server answers them concurrently): the matrix stays quick.
        await Promise.all(
          principals.map(async (who) => {
            const may = allowed(entry.access, who);
            // Refusals happen before the handler runs, so every method is tried; allowed writes are
            // not (they would change the project under the rest of the matrix) — the tests below do.
            if (may && method !== "GET") return;
            const response = await probe(method, url, body, who.headers);
            const label = `${who.label} ${method} ${url} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
            if (may) expect([401, 403], label).not.toContain(response.status);
            else if (
              entry.access.kind === "project" &&
              ["approval", "eval_run", "query-eval-runs"].includes(entry.access.project.from)
            ) {
              // No approval or eval run has this placeholder id, so there is no project to hold a role
              // on: refused, not found or (compare with no run named) a bad request — never let through
              // (their routes' own tests, and the eval test above, decide real ones).
              expect([400, 403, 404], label).toContain(response.status);
            } else {
              expect(response.status, label).toBe(403);
              expect((response.body as { code?: string }).code, label).toBe("forbidden");
            }
            checked.push(`${who.label} ${method} ${route.pattern}`);
          }),
        );
      }
    }
    expect(checked.length).toBeGreaterThan(200);
  });

  it("guards eval suites and runs by the run's project: a viewer reads, a runner runs, an outsider and another project's key are refused", async () => {
    const editor = as(state.users.editor?.cookie ?? "");
    const runner = as(state.users.runner?.cookie ?? "");
    const viewer = as(state.users.viewer?.cookie ?? "");
    const suite = {
      name: `access ${Date.now()}`,
      agent_id: "assistant",
      cases: [{ name: "hi", input: { messages: ["hi"] } }],
    };
    expect((await call("POST", `/api/projects/${state.projectA}/evals`, suite, viewer)).status).toBe(403);
    const created = await call<{ suite: { id: string } }>(
      "POST",
      `/api/projects/${state.projectA}/evals`,
      suite,
      editor,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const runs = `/api/projects/${state.projectA}/evals/${created.body.suite.id}/runs`;
    expect((await call("POST", runs, {}, viewer)).status).toBe(403);
    const started = await call<{ run: { id: string } }>("POST", runs, {}, runner);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const runId = started.body.run.id;
    expect((await call("GET", `/api/eval-runs/${runId}`, undefined, viewer)).status).toBe(200);
    const outsider = await call<{ code?: string }>(
      "GET",
      `/api/eval-runs/${runId}`,
      undefined,
      as(state.users.outsider?.cookie ?? ""),
    );
    expect([outsider.status, outsider.body.code]).toEqual([403, "forbidden"]);
    expect(
      (
        await call(
          "GET",
          `/api/eval-runs/compare?a=${runId}&b=${runId}`,
          undefined,
          as(state.users.outsider?.cookie ?? ""),
        )
      ).status,
    ).toBe(403);
    const keyB = await call<{ secret: string }>(
      "POST",
      `/api/projects/${state.projectB}/keys`,
      { name: "b-reader", scopes: ["read"] },
      as(state.admin.cookie),
    );
    expect(keyB.status).toBe(201);
    const byKeyB = await call("GET", `/api/eval-runs/${runId}`, undefined, {
      authorization: `Bearer ${keyB.body.secret}`,
    });
    expect(byKeyB.status).toBe(403);
    expect((await call("POST", `/api/eval-runs/${runId}/cancel`, undefined, viewer)).status).toBe(403);
  });

  it("lets each role do what it may: a runner stops a thread, an editor saves, an owner manages keys", async () => {
    const runner = as(state.users.runner?.cookie ?? "");
    const editor = as(state.users.editor?.cookie ?? "");
    expect((await call("POST", `/api/threads/${state.threadA}/stop`, undefined, runner)).status).toBe(200);
    expect(
      (
        await call(
          "POST",
          `/api/threads/${state.threadA}/stop`,
          undefined,
          as(state.users.viewer?.cookie ?? ""),
        )
      ).status,
    ).toBe(403);
    const saved = await call("PUT", `/api/projects/${state.projectA}/definitions`, scriptedBundle(), editor);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(
      (await call("PUT", `/api/projects/${state.projectA}/definitions`, scriptedBundle(), runner)).status,
    ).toBe(403);
    // A project keeps an owner.
    const lastOwner = await call(
      "DELETE",
      `/api/projects/${state.projectA}/members/${state.admin.id}`,
      undefined,
      as(state.admin.cookie),
    );
    expect(lastOwner.status).toBe(200);
    const alone = await call(
      "DELETE",
      `/api/projects/${state.projectA}/members/${state.users.owner?.id}`,
      undefined,
      as(state.users.owner?.cookie ?? ""),
    );
    expect(alone.status).toBe(409);
    expect(alone.body.code).toBe("last_owner");
    // Admins still see and manage every project without being members.
    expect(
      (await call("GET", `/api/projects/${state.projectA}/members`, undefined, as(state.admin.cookie)))
        .status,
    ).toBe(200);
  });
});

describe("pages", () => {
  it("send a browser without a session to /login, and keep a project's pages to its members", async () => {
    const page = (url: string, headers: Headers = {}) =>
      fetch(`${fixture.server.baseUrl}${url}`, { headers, redirect: "manual" });
    const anonymous = await page(`/projects/${state.projectA}`);
    expect([307, 308]).toContain(anonymous.status);
    const location = new URL(anonymous.headers.get("location") ?? "", fixture.server.baseUrl);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("next")).toBe(`/projects/${state.projectA}`);
    const forged = await page("/", { cookie: "tandem_session=forged" });
    expect([307, 308]).toContain(forged.status);
    expect((await page("/login")).status).toBe(200);
    expect((await page("/", as(state.users.viewer?.cookie ?? ""))).status).toBe(200);
    expect((await page(`/projects/${state.projectA}`, as(state.users.viewer?.cookie ?? ""))).status).toBe(
      200,
    );
    expect((await page(`/projects/${state.projectA}`, as(state.users.outsider?.cookie ?? ""))).status).toBe(
      404,
    );
    expect((await page(`/threads/${state.threadA}`, as(state.users.outsider?.cookie ?? ""))).status).toBe(
      404,
    );
    expect((await page(`/projects/${state.projectB}`, as(state.admin.cookie))).status).toBe(200);
  });
});

describe("project keys", () => {
  it("shows the secret once, stores it hashed, records its use, scopes it to one project, and revokes it", async () => {
    const owner = as(state.users.owner?.cookie ?? "");
    const created = await call<{
      key: { id: string; name: string; scopes: string[]; created_at: string };
      secret: string;
    }>("POST", `/api/projects/${state.projectA}/keys`, { name: "ci", scopes: ["run"] }, owner);
    expect(created.status).toBe(201);
    expect(created.body.key).toMatchObject({ name: "ci", scopes: ["run"] });
    expect(created.body.secret).toMatch(/^tdk_/);
    const secret = created.body.secret;
    const bearer = { authorization: `Bearer ${secret}` };
    expect((await call("GET", `/api/projects/${state.projectA}`, undefined, bearer)).status).toBe(200);
    expect((await call("POST", `/api/threads/${state.threadA}/stop`, undefined, bearer)).status).toBe(200);
    // Another project: refused; its threads and the listing: only its own project.
    expect((await call("GET", `/api/projects/${state.projectB}`, undefined, bearer)).status).toBe(403);
    expect((await call("GET", `/api/threads?project_id=${state.projectB}`, undefined, bearer)).status).toBe(
      403,
    );
    const listing = await call<{ projects: { id: string }[] }>("GET", "/api/projects", undefined, bearer);
    expect(listing.body.projects.map((project) => project.id)).toEqual([state.projectA]);
    // Not a design key, not a user.
    expect(
      (await call("PUT", `/api/projects/${state.projectA}/definitions`, scriptedBundle(), bearer)).status,
    ).toBe(403);
    expect((await call("POST", "/api/projects", { name: "x" }, bearer)).status).toBe(403);
    const keys = await call<{ keys: { id: string; last_used_at: string | null }[] }>(
      "GET",
      `/api/projects/${state.projectA}/keys`,
      undefined,
      owner,
    );
    expect(JSON.stringify(keys.body)).not.toContain(secret);
    expect(keys.body.keys.find((key) => key.id === created.body.key.id)?.last_used_at).not.toBeNull();
    expect(
      (await call("DELETE", `/api/projects/${state.projectA}/keys/${created.body.key.id}`, undefined, owner))
        .status,
    ).toBe(200);
    expect((await call("GET", `/api/projects/${state.projectA}`, undefined, bearer)).status).toBe(401);
  });

  it("opens the project's MCP endpoint to an mcp-scoped key only", async () => {
    const owner = as(state.users.owner?.cookie ?? "");
    const mcpKey = await call<{ secret: string }>(
      "POST",
      `/api/projects/${state.projectA}/keys`,
      { name: "claude", scopes: ["mcp"] },
      owner,
    );
    const designKey = await call<{ secret: string }>(
      "POST",
      `/api/projects/${state.projectA}/keys`,
      { name: "d", scopes: ["design"] },
      owner,
    );
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    const post = (projectId: string, secret: string) =>
      fetch(`${fixture.server.baseUrl}/api/projects/${projectId}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${secret}`,
        },
        body: JSON.stringify(initialize),
      });
    const ok = await post(state.projectA, mcpKey.body.secret);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ result: { serverInfo: { name: "tandem" } } });
    expect((await post(state.projectA, designKey.body.secret)).status).toBe(403);
    expect((await post(state.projectB, mcpKey.body.secret)).status).toBe(403);
    // An mcp key is only that: not the project's other routes.
    expect(
      (
        await call("GET", `/api/projects/${state.projectA}`, undefined, {
          authorization: `Bearer ${mcpKey.body.secret}`,
        })
      ).status,
    ).toBe(403);
  });
});

describe("CSRF", () => {
  it("refuses cookie-authenticated writes from another site, not scripts with a key", async () => {
    const crossSite = await call(
      "POST",
      "/api/projects",
      { name: "csrf" },
      { ...as(state.admin.cookie), origin: "http://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(String(crossSite.body.error)).toMatch(/Cross-site/);
    const fetchSite = await call(
      "POST",
      "/api/projects",
      { name: "csrf" },
      { ...as(state.admin.cookie), "sec-fetch-site": "cross-site" },
    );
    expect(fetchSite.status).toBe(403);
    const sameOrigin = await call(
      "POST",
      "/api/projects",
      { name: "same" },
      { ...as(state.admin.cookie), origin: fixture.server.baseUrl },
    );
    expect(sameOrigin.status).toBe(201);
    // Reads are not writes.
    expect(
      (
        await call("GET", "/api/projects", undefined, {
          ...as(state.admin.cookie),
          origin: "http://evil.example",
        })
      ).status,
    ).toBe(200);
    const crossLogin = await call(
      "POST",
      "/api/auth/login",
      { email: "viewer@example.com", password: PASSWORD },
      { origin: "http://evil.example" },
    );
    expect(crossLogin.status).toBe(403);
  });
});

describe("credentials", () => {
  it("stores a credential encrypted, never answers it, and a model's provider call uses it", async () => {
    const owner = as(state.users.owner?.cookie ?? "");
    const project = await call<{ id: string }>(
      "POST",
      "/api/projects",
      {
        name: "with credential",
        definitions: {
          agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
          prompts: [
            { name: "chat", toolDescription: "c", prompt: "Be brief.", model: "remote", includeChat: true },
          ],
          models: [
            {
              name: "remote",
              provider: "openai-compatible",
              model: "m",
              baseURL: provider.baseURL,
              apiKeyCredential: "provider-key",
            },
          ],
        },
      },
      owner,
    );
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const projectId = project.body.id;
    const put = await call(
      "PUT",
      `/api/projects/${projectId}/credentials/provider-key`,
      { value: CREDENTIAL_VALUE },
      owner,
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(
      (await call("PUT", `/api/projects/${projectId}/credentials/bad%20name`, { value: "x" }, owner)).status,
    ).toBe(400);
    expect((await call("PUT", `/api/projects/${projectId}/credentials/x`, {}, owner)).status).toBe(400);
    const listed = await call<{ credentials: { name: string; created_at: string; updated_at: string }[] }>(
      "GET",
      `/api/projects/${projectId}/credentials`,
      undefined,
      owner,
    );
    expect(listed.body.credentials).toEqual([
      { name: "provider-key", created_at: expect.any(String), updated_at: expect.any(String) },
    ]);

    const thread = await call<{ threadId: string }>(
      "POST",
      "/api/threads",
      { project_id: projectId, agent_id: "assistant", message: "hello" },
      owner,
    );
    expect(thread.status).toBe(201);
    const threadId = thread.body.threadId;
    const deadline = Date.now() + 20_000;
    let status = "";
    while (Date.now() < deadline) {
      status = (
        await call<{ thread: { status: string } }>("GET", `/api/threads/${threadId}`, undefined, owner)
      ).body.thread.status;
      if (status !== "running" && status !== "queued" && provider.requests.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(provider.requests.at(-1)?.authorization).toBe(`Bearer ${CREDENTIAL_VALUE}`);

    const surfaces: string[] = [JSON.stringify(listed.body), JSON.stringify(put.body)];
    for (const url of [
      `/api/threads/${threadId}`,
      `/api/threads/${threadId}/messages?includeSilent=true`,
      `/api/threads/${threadId}/logs`,
      `/api/threads/${threadId}/tree`,
      `/api/projects/${projectId}`,
      `/api/projects/${projectId}/export?format=json`,
      `/api/projects/${projectId}/export?format=ts`,
      `/api/projects/${projectId}/audit?limit=100`,
      `/api/projects/${projectId}/versions`,
    ]) {
      const response = await fetch(`${fixture.server.baseUrl}${url}`, { headers: owner });
      expect(response.status, url).toBe(200);
      surfaces.push(await response.text());
    }
    surfaces.push(fixture.server.output());
    for (const surface of surfaces) expect(surface).not.toContain(CREDENTIAL_VALUE);
    // Editors see the names (to pick one for a model), never the values; viewers nothing.
    expect(
      (
        await call(
          "PUT",
          `/api/projects/${projectId}/members/${state.users.editor?.id}`,
          { role: "editor" },
          owner,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await call(
          "GET",
          `/api/projects/${projectId}/credentials`,
          undefined,
          as(state.users.editor?.cookie ?? ""),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await call(
          "PUT",
          `/api/projects/${projectId}/credentials/other`,
          { value: "v" },
          as(state.users.editor?.cookie ?? ""),
        )
      ).status,
    ).toBe(403);
    expect(
      (await call("DELETE", `/api/projects/${projectId}/credentials/provider-key`, undefined, owner)).status,
    ).toBe(200);
    expect(
      (await call("DELETE", `/api/projects/${projectId}/credentials/provider-key`, undefined, owner)).status,
    ).toBe(404);
  });
});

describe("audit log", () => {
  it("records an approval's decision with the edited arguments, by whom", async () => {
    const runner = as(state.users.runner?.cookie ?? "");
    const saved = await call(
      "PUT",
      `/api/projects/${state.projectA}/definitions`,
      {
        agents: [{ name: "assistant", type: "ai_human", sideA: { prompt: "chat" } }],
        prompts: [
          {
            name: "chat",
            toolDescription: "c",
            prompt: "Be brief.",
            model: "demo",
            includeChat: true,
            tools: [{ name: "write_file", requiresApproval: true }],
          },
        ],
        models: [
          {
            name: "demo",
            provider: "scripted",
            model: "s",
            script: [
              { toolCalls: [{ name: "write_file", args: { path: "/a.md", content: "asked" } }] },
              { text: "done" },
            ],
          },
        ],
        tools: [{ name: "write_file", kind: "builtin", builtin: "fs_write", description: "Write a file." }],
      },
      as(state.users.editor?.cookie ?? ""),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const thread = await call<{ threadId: string }>(
      "POST",
      "/api/threads",
      { project_id: state.projectA, agent_id: "assistant", message: "write" },
      runner,
    );
    expect(thread.status, JSON.stringify(thread.body)).toBe(201);
    let approvalId = "";
    const deadline = Date.now() + 20_000;
    while (!approvalId && Date.now() < deadline) {
      const listed = await call<{ approvals: { id: string; state: string }[] }>(
        "GET",
        `/api/threads/${thread.body.threadId}/approvals?state=pending`,
        undefined,
        runner,
      );
      approvalId = listed.body.approvals[0]?.id ?? "";
      if (!approvalId) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(approvalId).not.toBe("");
    const viewerTry = await call(
      "POST",
      `/api/approvals/${approvalId}`,
      { decision: "deny" },
      as(state.users.viewer?.cookie ?? ""),
    );
    expect(viewerTry.status).toBe(403);
    const decided = await call(
      "POST",
      `/api/approvals/${approvalId}`,
      { decision: "approve", args: { path: "/a.md", content: "edited" } },
      runner,
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const audit = await call<{
      entries: {
        action: string;
        actor: { name: string };
        target: string;
        details: Record<string, unknown>;
      }[];
    }>(
      "GET",
      `/api/projects/${state.projectA}/audit?action=approval`,
      undefined,
      as(state.users.owner?.cookie ?? ""),
    );
    expect(audit.body.entries[0]).toMatchObject({
      action: "approval.decide",
      actor: { name: "runner" },
      target: approvalId,
      details: { decision: "approved", tool: "write_file", args: { path: "/a.md", content: "edited" } },
    });
  });

  it("records who did what, newest first, for owners", async () => {
    const owner = as(state.users.owner?.cookie ?? "");
    const audit = await call<{
      entries: {
        at: string;
        actor: { type: string; id: string | null; name: string };
        action: string;
        target: string | null;
        details: Record<string, unknown>;
      }[];
    }>("GET", `/api/projects/${state.projectA}/audit?limit=200`, undefined, owner);
    expect(audit.status).toBe(200);
    const actions = audit.body.entries.map((entry) => entry.action);
    for (const action of [
      "thread.start",
      "thread.stop",
      "version.save",
      "member.set",
      "member.remove",
      "key.create",
      "key.revoke",
    ]) {
      expect(actions, action).toContain(action);
    }
    const start = audit.body.entries.find(
      (entry) => entry.action === "thread.start" && entry.target === state.threadA,
    );
    expect(start).toMatchObject({
      actor: { type: "user", id: state.users.runner?.id, name: "runner" },
      target: state.threadA,
    });
    const keyStop = audit.body.entries.find(
      (entry) => entry.action === "thread.stop" && entry.actor.type === "key",
    );
    expect(keyStop?.actor.name).toBe("ci");
    const member = audit.body.entries.find((entry) => entry.action === "member.set");
    expect(member?.details.role).toEqual(expect.any(String));
    const times = audit.body.entries.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(
      (
        await call<{ entries: unknown[] }>(
          "GET",
          `/api/projects/${state.projectA}/audit?limit=2`,
          undefined,
          owner,
        )
      ).body.entries,
    ).toHaveLength(2);
    expect(
      (await call("GET", `/api/projects/${state.projectA}/audit?limit=0`, undefined, owner)).status,
    ).toBe(400);
    expect(
      (
        await call(
          "GET",
          `/api/projects/${state.projectA}/audit`,
          undefined,
          as(state.users.editor?.cookie ?? ""),
        )
      ).status,
    ).toBe(403);
  });

  it("keeps the credential's value out of every table (the whole PGlite folder, after a clean stop)", async () => {
    expect(fixture.server.output()).not.toContain(CREDENTIAL_VALUE);
    const dataDir = fixture.pgliteDir;
    // On a Postgres server the tables are searched through SQL.
    if (!dataDir) {
      const postgres = (await import("postgres")).default;
      const sql = postgres(fixture.databaseUrl ?? "", { max: 1, onnotice: () => {} });
      try {
        const tables = await sql<{ table_name: string }[]>`
          SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
        for (const { table_name } of tables) {
          const rows = await sql.unsafe(
            `SELECT count(*)::int AS n FROM "${table_name}" t WHERE t::text LIKE $1`,
            [`%${CREDENTIAL_VALUE}%`],
          );
          expect(rows[0]?.n, table_name).toBe(0);
        }
      } finally {
        await sql.end();
      }
      return;
    }
    await fixture.server.stop();
    const found: string[] = [];
    const walk = (directory: string) => {
      for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (fs.readFileSync(full).includes(CREDENTIAL_VALUE)) found.push(full);
      }
    };
    walk(dataDir);
    expect(found).toEqual([]);
  });
});
