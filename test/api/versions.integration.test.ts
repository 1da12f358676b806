// The version history routes: list, get, diff and restore, through real HTTP against the built server.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";

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

type Names = { agents: string[]; prompts: string[]; models: string[]; tools: string[] };
type VersionList = {
  versions: {
    version: number;
    created_at: number;
    summary: {
      agents: number;
      prompts: number;
      models: number;
      tools: number;
      errors: number;
      warnings: number;
    };
  }[];
};
type VersionDetail = {
  version: number;
  created_at: number;
  graph: { nodes: { id: string; type: string }[] };
  definitions: typeof chatBundle;
  diagnostics: unknown[];
};

const fixture = testServerForFile();
const api = fixture.api;

/** A project at version 3: v1 the chat bundle, v2 with a second model, v3 with a changed prompt and no extra model. */
async function projectWithThreeVersions() {
  const created = await api<{ id: string }>("POST", "/api/projects", {
    name: "History",
    definitions: chatBundle,
  });
  const id = created.body.id;
  const withExtraModel = {
    ...chatBundle,
    models: [...chatBundle.models, { name: "spare", provider: "scripted", model: "scripted", script: [] }],
  };
  expect((await api("PUT", `/api/projects/${id}/definitions`, withExtraModel)).status).toBe(200);
  const changedPrompt = {
    ...chatBundle,
    prompts: [{ ...chatBundle.prompts[0]!, prompt: "You are terse." }],
  };
  expect((await api("PUT", `/api/projects/${id}/definitions`, changedPrompt)).status).toBe(200);
  return id;
}

describe("listing and reading versions", () => {
  it("lists every version newest first with counts", async () => {
    const id = await projectWithThreeVersions();
    const list = await api<VersionList>("GET", `/api/projects/${id}/versions`);
    expect(list.status).toBe(200);
    expect(list.body.versions.map((entry) => entry.version)).toEqual([3, 2, 1]);
    expect(list.body.versions[1]!.summary).toEqual({
      agents: 1,
      prompts: 1,
      models: 2,
      tools: 0,
      errors: 0,
      warnings: expect.any(Number),
    });
    // microseconds since the epoch, like the project's own timestamps
    expect(list.body.versions[0]!.created_at).toBeGreaterThan(Date.now() * 1000 - 60_000_000);
  });

  it("reads one version with its graph, definitions and diagnostics", async () => {
    const id = await projectWithThreeVersions();
    const version = await api<VersionDetail>("GET", `/api/projects/${id}/versions/2`);
    expect(version.status).toBe(200);
    expect(version.body.version).toBe(2);
    expect(version.body.definitions.models.map((model) => model.name)).toEqual(["demo", "spare"]);
    expect(version.body.graph.nodes.length).toBeGreaterThan(0);
    expect(Array.isArray(version.body.diagnostics)).toBe(true);
    expect(typeof version.body.created_at).toBe("number");
  });

  it("answers 404 for an unknown version or project and 400 for a malformed version", async () => {
    const id = await projectWithThreeVersions();
    const missing = await api<{ error: string; code: string }>("GET", `/api/projects/${id}/versions/99`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "version_not_found", error: expect.any(String) });
    const unknownProject = await api("GET", "/api/projects/00000000-0000-4000-8000-000000000000/versions");
    expect(unknownProject.status).toBe(404);
    for (const malformed of ["abc", "1.5", "0", "-2"]) {
      const response = await api<{ error: string; code: string }>(
        "GET",
        `/api/projects/${id}/versions/${malformed}`,
      );
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("invalid_request");
    }
  });
});

describe("diffing versions", () => {
  it("reports added, removed and changed definition names", async () => {
    const id = await projectWithThreeVersions();
    const addedModel = await api<{ added: Names; removed: Names; changed: Names }>(
      "GET",
      `/api/projects/${id}/versions/2/diff?against=1`,
    );
    expect(addedModel.status).toBe(200);
    expect(addedModel.body.added.models).toEqual(["spare"]);
    expect(addedModel.body.removed).toEqual({ agents: [], prompts: [], models: [], tools: [] });

    const previous = await api<{ added: Names; removed: Names; changed: Names }>(
      "GET",
      `/api/projects/${id}/versions/3/diff`,
    );
    expect(previous.body.removed.models).toEqual(["spare"]);
    expect(previous.body.changed.prompts).toEqual(["assistant_prompt"]);
    expect((previous.body as { fields?: unknown }).fields).toMatchObject({
      prompts: { assistant_prompt: [expect.objectContaining({ path: "prompt", after: "You are terse." })] },
    });
    expect(previous.body.added.models).toEqual([]);
  });

  it("refuses a malformed or unknown against version", async () => {
    const id = await projectWithThreeVersions();
    expect((await api("GET", `/api/projects/${id}/versions/2/diff?against=x`)).status).toBe(400);
    expect((await api("GET", `/api/projects/${id}/versions/1/diff`)).status).toBe(400);
    expect((await api("GET", `/api/projects/${id}/versions/2/diff?against=42`)).status).toBe(404);
  });
});

describe("restoring a version", () => {
  it("saves the old version as a new one and keeps the history", async () => {
    const id = await projectWithThreeVersions();
    const restored = await api<VersionDetail>("POST", `/api/projects/${id}/versions/2/restore`, {
      base_version: 3,
    });
    expect(restored.status).toBe(200);
    expect(restored.body.version).toBe(4);
    expect(restored.body.definitions.models.map((model) => model.name)).toEqual(["demo", "spare"]);

    const project = await api<{ version: number; definitions: typeof chatBundle }>(
      "GET",
      `/api/projects/${id}`,
    );
    expect(project.body.version).toBe(4);
    const list = await api<VersionList>("GET", `/api/projects/${id}/versions`);
    expect(list.body.versions.map((entry) => entry.version)).toEqual([4, 3, 2, 1]);
    const diff = await api<{ added: Names; removed: Names; changed: Names }>(
      "GET",
      `/api/projects/${id}/versions/4/diff?against=2`,
    );
    expect(diff.body).toEqual({
      added: { agents: [], prompts: [], models: [], tools: [] },
      removed: { agents: [], prompts: [], models: [], tools: [] },
      changed: { agents: [], prompts: [], models: [], tools: [] },
      fields: { agents: {}, prompts: {}, models: {}, tools: {} },
    });
    // version 3 is untouched
    const third = await api<VersionDetail>("GET", `/api/projects/${id}/versions/3`);
    expect(third.body.definitions.prompts[0]!.prompt).toBe("You are terse.");
  });

  it("restores without a body", async () => {
    const id = await projectWithThreeVersions();
    const restored = await api<{ version: number }>("POST", `/api/projects/${id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.version).toBe(4);
  });

  it("refuses a stale base_version with 409 and saves nothing", async () => {
    const id = await projectWithThreeVersions();
    const stale = await api<{ error: string; code: string }>(
      "POST",
      `/api/projects/${id}/versions/1/restore`,
      {
        base_version: 2,
      },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("stale_base_version");
    const list = await api<VersionList>("GET", `/api/projects/${id}/versions`);
    expect(list.body.versions.map((entry) => entry.version)).toEqual([3, 2, 1]);
  });

  it("answers 404 for an unknown version and 400 for a bad body", async () => {
    const id = await projectWithThreeVersions();
    expect((await api("POST", `/api/projects/${id}/versions/9/restore`, {})).status).toBe(404);
    expect((await api("POST", `/api/projects/${id}/versions/1/restore`, { base_version: "x" })).status).toBe(
      400,
    );
  });
});
