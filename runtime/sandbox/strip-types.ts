// TypeScript for runCode, on the host: a module esbuild parses as JavaScript runs as written; any
// other has its types stripped with esbuild (the transpiler tsx already ships; pinned in
// package.json because this module imports it directly). Nothing is bundled or resolved: imports
// stay as written, so only the sandbox's own module loader decides what exists. esbuild reprints
// the code; its source map lets the host give errors the user's own line numbers (source-map.ts).
// (The check is esbuild's, not QuickJS's: a compile-only parse in QuickJS, kept beside the prelude,
// corrupted the instance's memory for some sources.)

import { decodeMappings, type LineMap } from "./source-map";

export class TypeScriptSyntaxError extends Error {}

export interface PreparedModule {
  code: string;
  filename: "main.js" | "main.ts";
  /** For TypeScript: where each line of `code` came from in the source. */
  lines?: LineMap;
}

/** The module as the sandbox runs it: the source itself when it is JavaScript, else its types stripped. */
export async function prepareModule(source: string): Promise<PreparedModule> {
  const { transform } = await import("esbuild");
  const javascript = await transform(source, {
    loader: "js",
    format: "esm",
    target: "esnext",
    logLevel: "silent",
  }).then(
    () => true,
    () => false,
  );
  if (javascript) return { code: source, filename: "main.js" };
  const stripped = await stripTypes(source, "main.ts");
  return { code: stripped.code, filename: "main.ts", lines: stripped.lines };
}

/** The module as JavaScript with its line map, or a TypeScriptSyntaxError naming the line and column. */
export async function stripTypes(
  source: string,
  filename: string,
): Promise<{ code: string; lines: LineMap }> {
  const { transform } = await import("esbuild");
  try {
    const output = await transform(source, {
      loader: "ts",
      format: "esm",
      target: "esnext",
      sourcefile: filename,
      logLevel: "silent",
      sourcemap: "external",
    });
    const map = JSON.parse(output.map) as { mappings: string };
    return { code: output.code, lines: decodeMappings(map.mappings) };
  } catch (error) {
    const failure = error as { errors?: { text: string; location?: { line: number; column: number } }[] };
    const first = failure.errors?.[0];
    if (!first) throw error;
    const where = first.location ? ` (${filename}:${first.location.line}:${first.location.column + 1})` : "";
    throw new TypeScriptSyntaxError(`SyntaxError: ${first.text}${where}`);
  }
}
