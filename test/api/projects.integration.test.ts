// The project routes of API.md through real HTTP against the built server and a real database.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";

const chatBundle = {
  agents: [{ name: "assistant", sideA: { prompt: "assistant_prompt" } }],
  prompts: [
    {
      name: "assistant_prompt",
      toolDescription: "Answers questions",
      prompt: "You are a helpful assistant.",
      model: "demo",
      includeChat: true,
    },
  ],
  models: [{ name: "demo", provider: "scripted", model: "scripted", script: [{ text: "Hello!" }] }],
  tools: [],
};

type Diagnostic = { severity: string; path: string; message: string; node_id?: string; edge_id?: string };
type Project = {
  id: string;
  name: string;
  version: number;
  graph: {
    nodes: { id: string; type: string; position: { x: number; y: number }; data: Record<string, unknown> }[];
    edges: { id: string; kind: string }[];
  };
  definitions: typeof chatBundle;
  diagnostics: Diagnostic[];
};

const fixture = testServerForFile();
const api = fixture.api;

describe("creating and listing projects", () => {
  it("creates an empty project at version 1 and lists it", async () => {
    const created = await api<{ id: string; name: string; version: number }>("POST", "/api/projects", {
      name: "  Empty  ",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Empty", version: 1 });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);

    const list = await api<{ projects: { id: string; name: string; version: number; updated_at: number }[] }>(
      "GET",
      "/api/projects",
    );
    expect(list.status).toBe(200);
    const listed = list.body.projects.find((project) => project.id === created.body.id);
    expect(listed).toMatchObject({ name: "Empty", version: 1 });
    // microseconds since the epoch
    expect(listed!.updated_at).toBeGreaterThan(Date.now() * 1000 - 60_000_000);
    expect(listed!.updated_at).toBeLessThan(Date.now() * 1000 + 60_000_000);

    const detail = await api<Project>("GET", `/api/projects/${created.body.id}`);
    expect(detail.body).toMatchObject({ name: "Empty", version: 1, diagnostics: [] });
    expect(detail.body.definitions).toEqual({ agents: [], prompts: [], models: [], tools: [] });
    expect(detail.body.graph.nodes).toEqual([]);
  });

  it("creates a project from definitions, laying out one node per definition with derived edges", async () => {
    const created = await api<{ id: string }>("POST", "/api/projects", {
      name: "Chat",
      definitions: chatBundle,
    });
    expect(created.status).toBe(201);
    const detail = await api<Project>("GET", `/api/projects/${created.body.id}`);
    expect(detail.body.definitions).toEqual(chatBundle);
    expect(detail.body.graph.nodes.map((node) => node.type).sort()).toEqual(["agent", "model", "prompt"]);
    expect(detail.body.graph.edges.map((edge) => edge.kind).sort()).toEqual(["model", "side"]);
    const positions = new Set(detail.body.graph.nodes.map((node) => `${node.position.x},${node.position.y}`));
    expect(positions.size).toBe(3);
  });

  it("refuses invalid definitions on create with 422 diagnostics and creates nothing", async () => {
    const before = await api<{ projects: unknown[] }>("GET", "/api/projects");
    const broken = { ...chatBundle, agents: [{ name: "assistant", sideA: { prompt: "missing_prompt" } }] };
    const response = await api<{ error: string; code: string; diagnostics: Diagnostic[] }>(
      "POST",
      "/api/projects",
      {
        name: "Broken",
        definitions: broken,
      },
    );
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("invalid_definitions");
    expect(response.body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "error", path: "agents[0].sideA.prompt" }),
    );
    const after = await api<{ projects: unknown[] }>("GET", "/api/projects");
    expect(after.body.projects.length).toBe(before.body.projects.length);
  });
});

describe("saving definitions and graphs", () => {
  it("PUT definitions makes a new version and keeps existing nodes where they were", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", {
      name: "Versions",
      definitions: chatBundle,
    });
    const first = await api<Project>("GET", `/api/projects/${created.id}`);
    const moved = first.body.graph.nodes.map((node) =>
      node.type === "agent" ? { ...node, position: { x: 900, y: 900 } } : node,
    );
    const savedGraph = await api<{ version: number }>("PUT", `/api/projects/${created.id}/graph`, {
      graph: { ...first.body.graph, nodes: moved },
      base_version: 1,
    });
    expect(savedGraph.status).toBe(200);
    expect(savedGraph.body.version).toBe(2);

    const extended = {
      ...chatBundle,
      tools: [
        { name: "read_notes", description: "Reads the notes file", kind: "builtin", builtin: "fs_read" },
      ],
      prompts: [{ ...chatBundle.prompts[0], tools: ["read_notes"] }],
    };
    const saved = await api<{ version: number; graph: Project["graph"]; diagnostics: Diagnostic[] }>(
      "PUT",
      `/api/projects/${created.id}/definitions`,
      extended,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.version).toBe(3);
    const agentNode = saved.body.graph.nodes.find((node) => node.type === "agent");
    expect(agentNode?.position).toEqual({ x: 900, y: 900 });
    expect(saved.body.graph.nodes.some((node) => node.type === "tool")).toBe(true);
    expect(saved.body.graph.edges.map((edge) => edge.kind)).toContain("tool");

    const detail = await api<Project>("GET", `/api/projects/${created.id}`);
    expect(detail.body.version).toBe(3);
    expect(detail.body.definitions).toEqual(extended);
  });

  it("PUT definitions with an invalid bundle answers 422 naming the field and keeps the old version", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", {
      name: "Guarded",
      definitions: chatBundle,
    });
    const invalid = { ...chatBundle, prompts: [{ ...chatBundle.prompts[0], model: "gpt_nowhere" }] };
    const response = await api<{ code: string; error: string; diagnostics: Diagnostic[] }>(
      "PUT",
      `/api/projects/${created.id}/definitions`,
      invalid,
    );
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/prompts\[0\]\.model/);
    expect(response.body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "error", path: "prompts[0].model" }),
    );
    const detail = await api<Project>("GET", `/api/projects/${created.id}`);
    expect(detail.body.version).toBe(1);
    expect(detail.body.definitions).toEqual(chatBundle);
  });

  it("saves a graph with problems and pins each diagnostic to its node", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", { name: "Drawn" });
    const graph = {
      nodes: [
        {
          id: "a1",
          type: "agent",
          position: { x: 0, y: 0 },
          data: { definition: { name: "helper", sideA: { prompt: "p1" } } },
        },
        {
          id: "p1",
          type: "prompt",
          position: { x: 300, y: 0 },
          data: { definition: { name: "p1", toolDescription: "d", prompt: "Hi", model: "nowhere" } },
        },
        { id: "n1", type: "note", position: { x: 0, y: 300 }, data: { text: "remember the reviewer" } },
      ],
    };
    const saved = await api<{ version: number; diagnostics: Diagnostic[] }>(
      "PUT",
      `/api/projects/${created.id}/graph`,
      {
        graph,
        base_version: 1,
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.version).toBe(2);
    expect(saved.body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "error", path: "prompts[0].model", node_id: "p1" }),
    );
    const detail = await api<Project>("GET", `/api/projects/${created.id}`);
    expect(detail.body.graph.nodes.map((node) => node.id)).toEqual(["a1", "p1", "n1"]);
    expect(detail.body.graph.edges).toContainEqual(expect.objectContaining({ id: "a1:sideA", kind: "side" }));
    // A version with errors is kept, but cannot run.
    const run = await api<{ code: string; error: string }>("POST", "/api/threads", {
      project_id: created.id,
      agent_id: "helper",
      message: "hello",
    });
    expect(run.status).toBe(409);
    expect(run.body.code).toBe("definitions_have_errors");
    expect(run.body.error).toMatch(/prompts\[0\]\.model/);
  });

  it("refuses a save on a stale base version with 409 and loses nothing", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", { name: "Contended" });
    const graph = { nodes: [{ id: "n", type: "note", position: { x: 0, y: 0 }, data: { text: "mine" } }] };
    const first = await api("PUT", `/api/projects/${created.id}/graph`, { graph, base_version: 1 });
    expect(first.status).toBe(200);
    const stale = await api<{ code: string; error: string; current_version: number }>(
      "PUT",
      `/api/projects/${created.id}/graph`,
      { graph: { nodes: [] }, base_version: 1 },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("stale_base_version");
    expect(stale.body.current_version).toBe(2);
    expect(stale.body.error).toMatch(/Reload/);
    const detail = await api<Project>("GET", `/api/projects/${created.id}`);
    expect(detail.body.version).toBe(2);
    expect(detail.body.graph.nodes).toHaveLength(1);
  });

  it("gives concurrent saves on the same base exactly one winner", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", { name: "Race" });
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        api("PUT", `/api/projects/${created.id}/graph`, {
          graph: {
            nodes: [
              { id: `n${index}`, type: "note", position: { x: 0, y: 0 }, data: { text: String(index) } },
            ],
          },
          base_version: 1,
        }),
      ),
    );
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });
});

describe("renaming and deleting", () => {
  it("renames a project and refuses an empty name", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", { name: "Old name" });
    const renamed = await api<{ name: string }>("PATCH", `/api/projects/${created.id}`, { name: "New name" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("New name");
    const empty = await api<{ code: string; error: string }>("PATCH", `/api/projects/${created.id}`, {
      name: "   ",
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/name/);
    const detail = await api<Project>("GET", `/api/projects/${created.id}`);
    expect(detail.body.name).toBe("New name");
  });

  it("deletes a project with its versions", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", { name: "Doomed" });
    const deleted = await api("DELETE", `/api/projects/${created.id}`);
    expect(deleted.status).toBe(200);
    expect((await api("GET", `/api/projects/${created.id}`)).status).toBe(404);
    expect((await api("DELETE", `/api/projects/${created.id}`)).status).toBe(404);
  });
});

describe("bad input never becomes a 500", () => {
  it.each([
    ["malformed JSON", "POST", "/api/projects", undefined, "{not json"],
    ["no body", "POST", "/api/projects", undefined, ""],
    ["missing name", "POST", "/api/projects", {}, undefined],
    ["name of the wrong type", "POST", "/api/projects", { name: 42 }, undefined],
    [
      "a graph that is not a graph",
      "POST",
      "/api/projects",
      { name: "x", graph: { nodes: "many" } },
      undefined,
    ],
    ["an array body", "POST", "/api/projects", [], undefined],
  ])("%s → 400 with a message", async (_label, method, path, body, rawBody) => {
    const response = await requestJson<{ error: string; code: string }>(
      fixture.server.baseUrl,
      method,
      path,
      body,
      {
        rawBody,
      },
    );
    expect(response.status).toBe(400);
    expect(typeof response.body.error).toBe("string");
    expect(response.body.error.length).toBeGreaterThan(5);
  });

  it("answers 404 for unknown and malformed project ids", async () => {
    for (const id of ["8f0c7f7e-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const response = await api<{ code: string }>("GET", `/api/projects/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("project_not_found");
      expect((await api("PUT", `/api/projects/${id}/definitions`, chatBundle)).status).toBe(404);
      expect((await api("PUT", `/api/projects/${id}/graph`, { graph: { nodes: [] } })).status).toBe(404);
    }
  });

  it("refuses bodies over the size limit with 413", async () => {
    const response = await api<{ code: string }>("POST", "/api/projects", {
      name: "x".repeat(6 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe("payload_too_large");
  });

  it("refuses a secret in a model definition", async () => {
    const leaky = { ...chatBundle, models: [{ ...chatBundle.models[0], apiKey: "sk-live-123" }] };
    const response = await api<{ diagnostics: Diagnostic[] }>("POST", "/api/projects", {
      name: "Leaky",
      definitions: leaky,
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body)).not.toContain("sk-live-123");
    expect(response.body.diagnostics.some((d) => d.path.startsWith("models[0]"))).toBe(true);
  });
});

describe("durability", () => {
  it("keeps projects across a SIGKILL and restart of the server", async () => {
    const { body: created } = await api<{ id: string }>("POST", "/api/projects", {
      name: "Survivor",
      definitions: chatBundle,
    });
    await fixture.server.kill();
    await fixture.server.restart();
    const detail = await api<Project>("GET", `/api/projects/${created.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.definitions).toEqual(chatBundle);
  });
});
