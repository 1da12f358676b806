// TypeScript for runCode, on the host: a module esbuild parses as JavaScript runs as written; any
// other has its types stripped with esbuild (the transpiler tsx already ships; pinned in
// package.json because this module imports it directly). Nothing is bundled or resolved: imports
// stay as written, so only the sandbox's own module loader decides what exists. esbuild reprints
// the code, so line numbers in errors from a TypeScript module may differ from the source.
// (The check is esbuild's, not QuickJS's: a compile-only parse in QuickJS, kept beside the prelude,
// corrupted the instance's memory for some sources.)

export class TypeScriptSyntaxError extends Error {}

/** The module as the sandbox runs it: the source itself when it is JavaScript, else its types stripped. */
export async function prepareModule(
  source: string,
): Promise<{ code: string; filename: "main.js" | "main.ts" }> {
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
  return { code: await stripTypes(source, "main.ts"), filename: "main.ts" };
}

/** The module as JavaScript, or a TypeScriptSyntaxError naming the line and column. */
export async function stripTypes(source: string, filename: string): Promise<string> {
  const { transform } = await import("esbuild");
  try {
    const output = await transform(source, {
      loader: "ts",
      format: "esm",
      target: "esnext",
      sourcefile: filename,
      logLevel: "silent",
    });
    return output.code;
  } catch (error) {
    const failure = error as { errors?: { text: string; location?: { line: number; column: number } }[] };
    const first = failure.errors?.[0];
    if (!first) throw error;
    const where = first.location ? ` (${filename}:${first.location.line}:${first.location.column + 1})` : "";
    throw new TypeScriptSyntaxError(`SyntaxError: ${first.text}${where}`);
  }
}
