// Export and import of definitions (API.md: GET …/export, POST …/import) through real HTTP against
// the built server: the JSON bundle, one TypeScript module and a zipped project all round-trip.
import { describe, expect, it } from "vitest";
import { unzipProjectFiles, zipProjectFiles } from "@/lib/codegen";
import { assetExampleBundle } from "@/lib/standard";
import { testServerForFile } from "../support/fixture";

const fixture = testServerForFile();
const api = fixture.api;

type Diagnostic = {
  severity: string;
  code: string;
  path: string;
  message: string;
  line?: number;
  column?: number;
  file?: string;
};
type ImportFailure = { error: string; code: string; diagnostics: Diagnostic[] };

async function createProject(name: string, definitions: unknown = assetExampleBundle) {
  const created = await api<{ id: string }>("POST", "/api/projects", { name, definitions });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function send(method: string, path: string, body: BodyInit, contentType: string) {
  const response = await fetch(`${fixture.server.baseUrl}${path}`, {
    method,
    headers: { "content-type": contentType },
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

async function definitionsOf(id: string) {
  const detail = await api<{ version: number; definitions: unknown }>("GET", `/api/projects/${id}`);
  return detail.body;
}

describe("GET /api/projects/:id/export", () => {
  it("answers the bundle as JSON by default and for format=json", async () => {
    const id = await createProject("Export JSON");
    for (const query of ["", "?format=json"]) {
      const response = await api("GET", `/api/projects/${id}/export${query}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(assetExampleBundle);
    }
  });

  it("answers one TypeScript module with define* calls and z schemas", async () => {
    const id = await createProject("Asset Studio");
    const response = await fetch(`${fixture.server.baseUrl}/api/projects/${id}/export?format=ts`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="asset-studio.ts"');
    const source = await response.text();
    expect(source).toContain(
      'import { defineAgent, defineModel, definePrompt, defineTool } from "@standardagents/spec";',
    );
    expect(source).toContain("export const asset_subagent = defineAgent({");
    expect(source).toContain('brief: z.string().describe("What the asset must show."),');
  });

  it("answers a zip of the project files", async () => {
    const id = await createProject("Zipped");
    const response = await fetch(`${fixture.server.baseUrl}/api/projects/${id}/export?format=zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="zipped.zip"');
    const files = await unzipProjectFiles(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "package.json",
        "tsconfig.json",
        "agents/index.ts",
        "agents/agents/asset_subagent.ts",
        "agents/prompts/asset_worker.ts",
        "agents/models/worker_model.ts",
        "agents/tools/read_file.ts",
      ]),
    );
    expect(files["agents/tools/read_file.ts"]).toContain("export default defineTool({");
  });

  it("refuses an unknown format with 400 and a message, and an unknown project with 404", async () => {
    const id = await createProject("Formats");
    const unknown = await api<{ code: string; error: string }>(
      "GET",
      `/api/projects/${id}/export?format=yaml`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("unknown_export_format");
    expect(unknown.body.error).toContain("format=ts");
    const missing = await api("GET", "/api/projects/00000000-0000-4000-8000-000000000000/export?format=ts");
    expect(missing.status).toBe(404);
  });
});

describe("POST /api/projects/:id/import", () => {
  it("imports an exported TypeScript module back as a new version with the same definitions", async () => {
    const source = await fetch(
      `${fixture.server.baseUrl}/api/projects/${await createProject("Source")}/export?format=ts`,
    ).then((response) => response.text());
    const target = await createProject("Target", { agents: [], prompts: [], models: [], tools: [] });
    for (const contentType of ["text/plain; charset=utf-8", "application/typescript"]) {
      const imported = await send("POST", `/api/projects/${target}/import`, source, contentType);
      expect(imported.status).toBe(200);
      expect(imported.body).toMatchObject({ diagnostics: [] });
    }
    const detail = await definitionsOf(target);
    expect(detail.version).toBe(3);
    expect(detail.definitions).toEqual(assetExampleBundle);
  });

  it("imports a zipped project and a JSON bundle", async () => {
    const exported = await fetch(
      `${fixture.server.baseUrl}/api/projects/${await createProject("Zip source")}/export?format=zip`,
    );
    const zip = new Uint8Array(await exported.arrayBuffer());
    const target = await createProject("Zip target", { agents: [], prompts: [], models: [], tools: [] });
    const fromZip = await send("POST", `/api/projects/${target}/import`, zip, "application/zip");
    expect(fromZip.status).toBe(200);
    expect((await definitionsOf(target)).definitions).toEqual(assetExampleBundle);

    const json = await send(
      "POST",
      `/api/projects/${target}/import`,
      JSON.stringify({ ...assetExampleBundle, tools: [...assetExampleBundle.tools] }),
      "application/json",
    );
    expect(json.status).toBe(200);
    expect((await definitionsOf(target)).version).toBe(3);
  });

  it("answers 422 invalid_source with line and column for code outside the subset, and saves nothing", async () => {
    const id = await createProject("Guarded import");
    const source = [
      'import { defineAgent } from "@standardagents/spec";',
      "",
      'export const assistant = defineAgent({ name: "assistant", sideA: { prompt: process.env.PROMPT } });',
    ].join("\n");
    const response = await send("POST", `/api/projects/${id}/import`, source, "text/plain");
    expect(response.status).toBe(422);
    const body = response.body as ImportFailure;
    expect(body.code).toBe("invalid_source");
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "error", path: "agents[0].sideA.prompt", line: 3, column: 76 }),
    );
    expect((await definitionsOf(id)).version).toBe(1);
  });

  it("answers 422 invalid_definitions when readable code breaks a rule, pointing at the line", async () => {
    const id = await createProject("Rules");
    const source = [
      'import { defineAgent } from "@standardagents/spec";',
      "export const assistant = defineAgent({",
      '  name: "assistant",',
      '  sideA: { prompt: "no_such_prompt" },',
      "});",
    ].join("\n");
    const response = await send("POST", `/api/projects/${id}/import`, source, "application/typescript");
    expect(response.status).toBe(422);
    const body = response.body as ImportFailure;
    expect(body.code).toBe("invalid_definitions");
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ code: "unknown_prompt", path: "agents[0].sideA.prompt", line: 4 }),
    );
  });

  it("answers 400 for a damaged zip, an empty body or an unknown content type, and 404 for an unknown project", async () => {
    const id = await createProject("Bad input");
    const damaged = zipProjectFiles({ "agents/agents/a.ts": "export default 1;" }).slice(0, 40);
    const zip = await send("POST", `/api/projects/${id}/import`, damaged, "application/zip");
    expect(zip.status).toBe(400);
    expect((zip.body as { code: string }).code).toBe("invalid_zip");
    const empty = await send("POST", `/api/projects/${id}/import`, "  ", "text/plain");
    expect(empty.status).toBe(400);
    const yaml = await send("POST", `/api/projects/${id}/import`, "agents: []", "application/yaml");
    expect(yaml.status).toBe(400);
    expect((yaml.body as { code: string }).code).toBe("unsupported_content_type");
    const missing = await send(
      "POST",
      "/api/projects/00000000-0000-4000-8000-000000000000/import",
      "x",
      "text/plain",
    );
    expect(missing.status).toBe(404);
    expect((await definitionsOf(id)).version).toBe(1);
  });
});
