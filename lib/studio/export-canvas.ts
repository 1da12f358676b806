// The studio's exports, made in the browser from the canvas as it is (saved or not): the JSON bundle,
// one TypeScript module, or a zipped Standard Agents project. Pure, so the menu and tests share it.
import {
  bundleToProjectFiles,
  bundleToTypeScript,
  packageNameFor,
  withoutPlaceholders,
  zipProjectFiles,
} from "@/lib/codegen";
import { compileGraph, type Graph } from "@/lib/graph";

export const EXPORT_FORMATS = [
  { format: "json", label: "JSON bundle (.json)" },
  { format: "ts", label: "TypeScript module (.ts)" },
  { format: "zip", label: "Standard Agents project (.zip)" },
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number]["format"];

export interface ExportFile {
  fileName: string;
  mimeType: string;
  data: string | Uint8Array<ArrayBuffer>;
}

export type ExportResult = { ok: true; file: ExportFile } | { ok: false; reason: string };

/**
 * The file for `format` holding the canvas's definitions, named after the project; the studio's hint
 * texts are never exported as descriptions.
 */
export function exportCanvas(graph: Graph, format: ExportFormat, projectName: string): ExportResult {
  const bundle = withoutPlaceholders(compileGraph(graph).bundle);
  const baseName = packageNameFor(projectName);
  if (format === "json") {
    return {
      ok: true,
      file: {
        fileName: `${baseName}.json`,
        mimeType: "application/json",
        data: `${JSON.stringify(bundle, null, 2)}\n`,
      },
    };
  }
  if (format === "ts") {
    return {
      ok: true,
      file: { fileName: `${baseName}.ts`, mimeType: "text/plain", data: bundleToTypeScript(bundle) },
    };
  }
  try {
    const zip = zipProjectFiles(bundleToProjectFiles(bundle, { name: projectName }));
    return {
      ok: true,
      file: {
        fileName: `${baseName}.zip`,
        mimeType: "application/zip",
        data: zip as Uint8Array<ArrayBuffer>,
      },
    };
  } catch (error) {
    // Only a definition whose name cannot be a file name gets here.
    return { ok: false, reason: `${(error as Error).message} Fix the problems, then export again.` };
  }
}

/** What the menu says about the canvas before an export, or null when it is saved and has no errors. */
export function exportNotice(input: { unsaved: boolean; errors: number; baseVersion: number | null }) {
  const notes: string[] = [];
  if (input.unsaved) {
    notes.push(
      input.baseVersion === null
        ? "Unsaved changes: the export is the canvas as it is now (nothing is saved yet)."
        : `Unsaved changes: the export is the canvas as it is now, not saved v${input.baseVersion}.`,
    );
  }
  if (input.errors > 0) {
    notes.push(
      `${input.errors} ${input.errors === 1 ? "problem" : "problems"} on the canvas: the export may not import back until fixed.`,
    );
  }
  return notes.length > 0 ? notes.join(" ") : null;
}
