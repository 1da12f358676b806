import { describe, expect, it } from "vitest";
import { projectFilesToBundle, typeScriptToBundle, unzipProjectFiles } from "@/lib/codegen";
import { addNode } from "./document-edits";
import { documentFromBundle } from "./document-layout";
import { exportCanvas, exportNotice } from "./export-canvas";
import { namedWorkersTemplate } from "./templates";
import { defaultTool, switchToolKind } from "./tool-kinds";

describe("exportCanvas", () => {
  const bundle = namedWorkersTemplate();
  const graph = documentFromBundle(bundle);

  it("exports the canvas's bundle as JSON, named after the project", () => {
    const result = exportCanvas(graph, "json", "My Team!");
    if (!result.ok) throw new Error(result.reason);
    expect(result.file.fileName).toBe("my-team.json");
    expect(result.file.mimeType).toBe("application/json");
    expect(JSON.parse(result.file.data as string)).toEqual(bundle);
  });

  it("exports one TypeScript module and a zipped project that read back to the same bundle", async () => {
    const module = exportCanvas(graph, "ts", "team");
    if (!module.ok) throw new Error(module.reason);
    expect(module.file.fileName).toBe("team.ts");
    expect(typeScriptToBundle(module.file.data as string).bundle).toEqual(bundle);
    const zip = exportCanvas(graph, "zip", "team");
    if (!zip.ok) throw new Error(zip.reason);
    expect(zip.file.fileName).toBe("team.zip");
    const files = await unzipProjectFiles(zip.file.data as Uint8Array);
    expect(files["standardagents/index.ts"]).toContain("export function defineAgent(");
    expect(projectFilesToBundle(files).bundle).toEqual(bundle);
  });

  it("never exports a hint text as a new prompt's or tool's description", async () => {
    let document = graph;
    document = addNode(document, "prompt", { x: 0, y: 0 }).graph;
    document = addNode(document, "tool", { x: 0, y: 0 }, (name) =>
      switchToolKind(defaultTool("builtin", name), "code"),
    ).graph;
    for (const format of ["json", "ts"] as const) {
      const result = exportCanvas(document, format, "team");
      if (!result.ok) throw new Error(result.reason);
      expect(result.file.data).not.toMatch(/Describe (when|what)/);
    }
    const zip = exportCanvas(document, "zip", "team");
    if (!zip.ok) throw new Error(zip.reason);
    expect(Object.values(await unzipProjectFiles(zip.file.data as Uint8Array)).join("\n")).not.toMatch(
      /Describe (when|what)/,
    );
  });

  it("exports an edit that is not saved (the document given, not a saved version)", () => {
    const edited = documentFromBundle({
      ...bundle,
      agents: [{ ...bundle.agents[0]!, title: "Edited lead" }],
    });
    const result = exportCanvas(edited, "json", "team");
    if (!result.ok) throw new Error(result.reason);
    expect(JSON.parse(result.file.data as string).agents[0].title).toBe("Edited lead");
  });

  it("refuses a zip when a name cannot be a file name, and says why", () => {
    const broken = documentFromBundle({ ...bundle, tools: [] });
    broken.nodes.push({
      id: "model:bad",
      type: "model",
      position: { x: 0, y: 0 },
      data: { definition: { name: "../bad", provider: "scripted", model: "scripted", script: [] } },
    });
    const result = exportCanvas(broken, "zip", "team");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain('Cannot export "../bad"');
  });
});

describe("exportNotice", () => {
  it("says when the export holds unsaved changes or problems, and nothing otherwise", () => {
    expect(exportNotice({ unsaved: false, errors: 0, baseVersion: 3 })).toBeNull();
    expect(exportNotice({ unsaved: true, errors: 0, baseVersion: 3 })).toBe(
      "Unsaved changes: the export is the canvas as it is now, not saved v3.",
    );
    expect(exportNotice({ unsaved: true, errors: 0, baseVersion: null })).toContain("nothing is saved yet");
    expect(exportNotice({ unsaved: false, errors: 1, baseVersion: 3 })).toBe(
      "1 problem on the canvas: the export may not import back until fixed.",
    );
    expect(exportNotice({ unsaved: false, errors: 2, baseVersion: 3 })).toContain("2 problems");
  });
});
