import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assetExampleBundle, minimalChatBundle } from "@/lib/standard";
import { bundleToProjectFiles, packageNameFor, projectFilesToBundle } from "./project-files";

describe("bundleToProjectFiles", () => {
  it("writes one default-exporting file per definition, the index, package.json, tsconfig.json and the spec module", () => {
    const files = bundleToProjectFiles(minimalChatBundle, { name: "My Chat!" });
    expect(Object.keys(files)).toEqual([
      "package.json",
      "tsconfig.json",
      "standardagents/package.json",
      "standardagents/index.ts",
      "agents/index.ts",
      "agents/agents/assistant.ts",
      "agents/prompts/assistant_chat.ts",
      "agents/models/assistant_model.ts",
    ]);
    // Only the local spec module and packages the npm registry has, pinned to what this repo uses.
    const repository = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8"));
    expect(JSON.parse(files["package.json"]!)).toEqual({
      name: "my-chat",
      version: "0.1.0",
      private: true,
      type: "module",
      scripts: { typecheck: "tsc --noEmit" },
      dependencies: { "@standardagents/spec": "file:./standardagents", zod: repository.dependencies.zod },
      devDependencies: { typescript: repository.devDependencies.typescript },
    });
    expect(JSON.parse(files["standardagents/package.json"]!)).toMatchObject({
      name: "@standardagents/spec",
      exports: { ".": "./index.ts" },
    });
    for (const define of ["defineAgent", "definePrompt", "defineModel", "defineTool"]) {
      expect(files["standardagents/index.ts"]).toContain(`export function ${define}(`);
    }
    expect(files["agents/agents/assistant.ts"]).toBe(
      [
        'import { defineAgent } from "@standardagents/spec";',
        "",
        "export default defineAgent({",
        '  name: "assistant",',
        '  sideA: { label: "Assistant", prompt: "assistant_chat" },',
        '  title: "Assistant",',
        '  description: "A helpful chat assistant.",',
        "});",
        "",
      ].join("\n"),
    );
    expect(packageNameFor("  ")).toBe("standard-agents-project");
  });
});

describe("projectFilesToBundle", () => {
  it("reads files in path order without an index, and names a definition after its file when it has no name", () => {
    const files = bundleToProjectFiles(assetExampleBundle);
    delete files["agents/index.ts"];
    files["agents/tools/read_file.ts"] = files["agents/tools/read_file.ts"]!.replace(
      '  name: "read_file",\n',
      "",
    );
    const result = projectFilesToBundle(files);
    expect(result.diagnostics).toEqual([]);
    expect(result.bundle?.agents.map((agent) => agent.name)).toEqual(["asset_subagent", "orchestrator"]);
    expect(result.bundle?.tools.map((tool) => tool.name)).toEqual(["list_files", "read_file", "write_file"]);
  });

  it("accepts a zip of the project folder (one top directory) and ignores unknown folders with a warning", () => {
    const files = Object.fromEntries(
      Object.entries(bundleToProjectFiles(minimalChatBundle)).map(([path, text]) => [
        `my-project/${path}`,
        text,
      ]),
    );
    files["my-project/agents/hooks/audit.ts"] = "export default 1;";
    const result = projectFilesToBundle(files);
    expect(result.bundle).toEqual(minimalChatBundle);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: "warning", code: "unexpected_file" }),
    ]);
  });

  it("pins problems on the file: a name that differs from the file name, a wrong define*, a broken index entry", () => {
    const files = bundleToProjectFiles(minimalChatBundle);
    files["agents/models/assistant_model.ts"] = files["agents/models/assistant_model.ts"]!.replace(
      'name: "assistant_model"',
      'name: "other_model"',
    );
    files["agents/prompts/assistant_chat.ts"] =
      'import { defineTool } from "@standardagents/spec";\nexport default defineTool({ name: "assistant_chat", kind: "code", module: "x", description: "d" });\n';
    files["agents/index.ts"] = files["agents/index.ts"]!.replace(
      "agents: [assistant]",
      "agents: [assistant, ghost]",
    );
    const result = projectFilesToBundle(files);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(({ code, file, line }) => ({ code, file, line }))).toEqual([
      { code: "unknown_identifier", file: "agents/index.ts", line: 7 },
      { code: "wrong_definition_kind", file: "agents/prompts/assistant_chat.ts", line: 2 },
      { code: "file_name_mismatch", file: "agents/models/assistant_model.ts", line: 4 },
    ]);
  });

  it("places bundle rule problems in the file that wrote the value", () => {
    const files = bundleToProjectFiles(minimalChatBundle);
    files["agents/prompts/assistant_chat.ts"] = files["agents/prompts/assistant_chat.ts"]!.replace(
      'model: "assistant_model"',
      'model: "nowhere"',
    );
    const result = projectFilesToBundle(files);
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: "unknown_model", file: "agents/prompts/assistant_chat.ts", line: 7 }),
    );
  });
});
