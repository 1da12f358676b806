// GET /api/projects/:id/audit's filters over HTTP, on the database the suite runs on (PGlite, or the
// Postgres server DATABASE_URL names): action and family, actor (a user's or a key's id), from/to,
// the `before` cursor of `next_before`; the contract's entry shape; and a 400 naming the parameter
// for each bad filter.
import { beforeAll, describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";

const fixture = testServerForFile();
const PASSWORD = "correct horse battery";

interface Entry {
  id: string;
  at: string;
  actor: { type: "user" | "key"; id: string | null; name: string };
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}
interface Page {
  entries: Entry[];
  next_before: string | null;
}

const state = { cookie: "", adminId: "", projectId: "", keyId: "", secret: "", userId: "" };
const call = <Body = Record<string, unknown>>(method: string, url: string, body?: unknown, headers = {}) =>
  requestJson<Body>(fixture.server.baseUrl, method, url, body, {
    headers: { cookie: state.cookie, ...headers },
  });
const audit = (query: string) => call<Page>("GET", `/api/projects/${state.projectId}/audit?${query}`);

function bundle(text: string) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [{ name: "chat", toolDescription: "c", prompt: text, model: "demo", includeChat: true }],
    models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "ok" }] }],
  };
}

beforeAll(async () => {
  const setup = await requestJson<{ user: { id: string } }>(
    fixture.server.baseUrl,
    "POST",
    "/api/auth/setup",
    {
      email: "owner@example.com",
      password: PASSWORD,
      name: "Olive Owner",
    },
  );
  expect(setup.status, JSON.stringify(setup.body)).toBe(201);
  state.cookie = /tandem_session=[^;]*/.exec(setup.headers.get("set-cookie") ?? "")?.[0] ?? "";
  state.adminId = setup.body.user.id;
  const project = await call<{ id: string }>("POST", "/api/projects", { name: "Audited" });
  expect(project.status).toBe(201);
  state.projectId = project.body.id;
  // The owner: a member set and removed, a key created; the key: two saves.
  const user = await call<{ user: { id: string } }>("POST", "/api/users", {
    email: "vera@example.com",
    password: PASSWORD,
    name: "Vera Viewer",
  });
  state.userId = user.body.user.id;
  expect(
    (await call("PUT", `/api/projects/${state.projectId}/members/${state.userId}`, { role: "viewer" }))
      .status,
  ).toBe(200);
  const key = await call<{ key: { id: string }; secret: string }>(
    "POST",
    `/api/projects/${state.projectId}/keys`,
    {
      name: "designer",
      scopes: ["design"],
    },
  );
  expect(key.status).toBe(201);
  state.keyId = key.body.key.id;
  state.secret = key.body.secret;
  for (const text of ["one", "two"]) {
    const saved = await requestJson(
      fixture.server.baseUrl,
      "PUT",
      `/api/projects/${state.projectId}/definitions`,
      bundle(text),
      { headers: { authorization: `Bearer ${state.secret}` } },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  expect(
    (await call("DELETE", `/api/projects/${state.projectId}/members/${state.userId}`)).status,
  ).toBeLessThan(300);
});

describe("audit filters", () => {
  it("answers the contract's shape, newest first, with next_before", async () => {
    const page = await audit("limit=100");
    expect(page.status).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(["entries", "next_before"]);
    expect(page.body.next_before).toBeNull();
    expect(page.body.entries.map((entry) => entry.action)).toEqual([
      "member.remove",
      "version.save",
      "version.save",
      "key.create",
      "member.set",
      "project.create",
    ]);
    for (const entry of page.body.entries) {
      expect(Object.keys(entry).sort()).toEqual(["action", "actor", "at", "details", "id", "target"]);
      expect(Object.keys(entry.actor).sort()).toEqual(["id", "name", "type"]);
      expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
    }
  });

  it("filters by action, family and actor (a key's id or a user's)", async () => {
    expect((await audit("action=version.save")).body.entries).toHaveLength(2);
    expect((await audit("action=member")).body.entries.map((entry) => entry.action)).toEqual([
      "member.remove",
      "member.set",
    ]);
    const byKey = await audit(`actor=${state.keyId}`);
    expect(byKey.body.entries.map((entry) => entry.action)).toEqual(["version.save", "version.save"]);
    expect(byKey.body.entries[0]?.actor).toEqual({ type: "key", id: state.keyId, name: "designer" });
    const byOwner = await audit(`actor=${state.adminId}&action=key`);
    expect(byOwner.body.entries.map((entry) => entry.action)).toEqual(["key.create"]);
    expect((await audit(`actor=${state.userId}`)).body.entries).toEqual([]);
  });

  it("filters by time, ISO or epoch ms, both ends kept", async () => {
    const all = (await audit("limit=100")).body.entries;
    const saves = all.filter((entry) => entry.action === "version.save");
    const newest = saves[0]?.at ?? "";
    const oldest = saves[1]?.at ?? "";
    const between = await audit(`from=${encodeURIComponent(oldest)}&to=${Date.parse(newest)}&action=version`);
    expect(between.body.entries.map((entry) => entry.at)).toEqual([newest, oldest]);
    const after = await audit(`from=${Date.parse(all[0]?.at ?? "") + 1}`);
    expect(after.body.entries).toEqual([]);
  });

  it("pages back with before = next_before, every entry once", async () => {
    const all = (await audit("limit=100")).body.entries.map((entry) => entry.id);
    const seen: string[] = [];
    let query = "limit=4";
    for (let pages = 0; pages < 5; pages++) {
      const page = await audit(query);
      expect(page.status).toBe(200);
      seen.push(...page.body.entries.map((entry) => entry.id));
      if (!page.body.next_before) break;
      query = `limit=4&before=${encodeURIComponent(page.body.next_before)}`;
    }
    expect(seen).toEqual(all);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=abc", "limit"],
    ["limit=1001", "limit"],
    ["action=Version%20Save", "action"],
    ["actor=a%20b", "actor"],
    ["from=yesterday", "from"],
    ["to=-5", "to"],
    ["from=2026-12-02T10:00:00Z&to=2026-12-01T10:00:00Z", "to"],
    ["before=page-2", "before"],
  ])("answers 400 naming the parameter for %s", async (query, name) => {
    const response = await call<{ error: string; code: string }>(
      "GET",
      `/api/projects/${state.projectId}/audit?${query}`,
    );
    expect(response.status).toBe(400);
    expect(String(response.body.error)).toContain(name);
    expect(response.body.code).toBe("invalid_request");
  });
});
