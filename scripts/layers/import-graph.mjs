// Reads every import of the repository's TypeScript files with esbuild's parser (its metafile): for each file, the
// repository path each import resolves to (relative imports of any depth and `@/` aliases alike),
// whether it is type-only, and the bare package name for imports of node_modules.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

/** Folders never read: build output, generated code, data, reports and the bench's own npm package. */
const SKIPPED =
  /^(\.next|\.data|\.git|\.stryker-tmp|lib\/db\/generated|bench\/peers|test-results|playwright-report|e2e-artifacts|reports|coverage)(\/|$)|(^|\/)node_modules(\/|$)/;

/** The specifier of every `import type …`/`export type … from` statement (erased by esbuild). */
const TYPE_ONLY_STATEMENT =
  /(?:^|[;\n])\s*(?:import|export)\s+type\s+[\w$\s{},*]*?\bfrom\s*["']([^"']+)["']/g;

/** Strips comments so that an example in a comment is never read as an import. */
export function withoutComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/**
 * Turns a specifier written in `importer` into a repository path (no extension), or a package name.
 * `@/x` and `./x`/`../../x` both become `x` relative to the repository root.
 */
export function resolveSpecifier(importer, specifier) {
  if (specifier.startsWith("@/")) return { target: path.posix.normalize(specifier.slice(2)) };
  if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
    return { target: path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier)) };
  }
  const parts = specifier.replace(/^node:/, "node:").split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return { package: name };
}

/**
 * The imports of `files` (repository-relative paths, forward slashes) under `root`:
 * `[{ from, specifier, target?, package?, typeOnly }]`. A value import is one esbuild keeps with
 * TypeScript's `verbatimModuleSyntax`: anything not written `import type`/`export type`.
 */
export async function readImports(root, files) {
  const edges = [];
  const seen = new Set();
  const record = (from, specifier, typeOnly) => {
    const key = `${from}\0${specifier}\0${typeOnly}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push({ from, specifier, typeOnly, ...resolveSpecifier(from, specifier) });
  };
  // Every import is external, so esbuild parses each file once and lists what it imports as written.
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: files,
    bundle: true,
    external: ["*"],
    treeShaking: false,
    write: false,
    metafile: true,
    outdir: "out",
    format: "esm",
    platform: "node",
    logLevel: "silent",
    loader: { ".ts": "ts", ".tsx": "tsx", ".mts": "ts", ".mjs": "js", ".js": "js" },
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, jsx: "react-jsx" } },
  });
  for (const [from, input] of Object.entries(metafile.inputs)) {
    for (const { path: specifier } of input.imports) record(from.split(path.sep).join("/"), specifier, false);
  }
  await Promise.all(
    files.map(async (file) => {
      const source = withoutComments(await readFile(path.join(root, file), "utf8"));
      for (const match of source.matchAll(TYPE_ONLY_STATEMENT)) record(file, match[1], true);
    }),
  );
  return edges;
}

/** True when a repository path is never read (build output, generated code…). */
export function isSkipped(file) {
  return SKIPPED.test(file);
}
