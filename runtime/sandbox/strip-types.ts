// TypeScript for runCode: a module QuickJS cannot parse as JavaScript has its types stripped with
// esbuild (the transpiler tsx already ships; pinned in package.json because this module imports it
// directly) and is parsed again. Nothing is bundled or resolved: imports stay as written, so only
// the sandbox's own module loader decides what exists. esbuild reprints the code, so line numbers
// in errors from a TypeScript module may differ from the source (plain JavaScript runs as written).

export class TypeScriptSyntaxError extends Error {}

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
