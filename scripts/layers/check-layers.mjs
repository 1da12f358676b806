// `npm run lint`'s layer check: every import of every source file against the ordered layer list
// (layer-list.mjs) and the SQL rule (sql-rule.mjs). Prints one line per problem and exits 1 if any.
// Usage: node scripts/layers/check-layers.mjs [folder]   (default: the repository)
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isSkipped, readImports, withoutComments } from "./import-graph.mjs";
import {
  fileProblem,
  isSqlClientImport,
  layerProblem,
  mayUseDatabase,
  sqlImportProblem,
} from "./layer-rules.mjs";
import { hasSqlText, isCheckedForSql, STILL_ALLOWED } from "./sql-rule.mjs";

const SOURCE = /\.(tsx?|mts|cts|mjs|cjs|js|jsx)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** Every source file under `root` (repository-relative, forward slashes), skipping build output. */
export async function sourceFiles(root, folder = "") {
  const files = [];
  for (const entry of await readdir(path.join(root, folder), { withFileTypes: true })) {
    const file = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.name.startsWith(".") || isSkipped(file)) continue;
    if (entry.isDirectory()) files.push(...(await sourceFiles(root, file)));
    else if (entry.isFile() && SOURCE.test(entry.name) && !DECLARATION.test(entry.name)) files.push(file);
  }
  return files.sort();
}

/**
 * The problems of `files` under `root`: `[{ file, rule: "layers" | "sql", specifier?, message }]`. With `wholeRepository`, an entry of the
 * SQL allow-list that no longer needs it is a problem too (so the list only shrinks).
 */
export async function checkLayers(root, files, { wholeRepository = false } = {}) {
  const problems = [];
  for (const file of files) {
    const message = fileProblem(file);
    if (message) problems.push({ file, rule: "layers", message });
  }
  const edges = await readImports(root, files);
  for (const edge of edges) {
    const layers = layerProblem(edge);
    if (layers)
      problems.push({ file: edge.from, rule: "layers", specifier: edge.specifier, message: layers });
    const sql = sqlImportProblem(edge);
    if (sql) problems.push({ file: edge.from, rule: "sql", specifier: edge.specifier, message: sql });
  }
  const usingDatabase = new Set(edges.filter(isSqlClientImport).map((edge) => edge.from));
  for (const file of files.filter(isCheckedForSql)) {
    if (!hasSqlText(withoutComments(await readFile(path.join(root, file), "utf8")))) continue;
    usingDatabase.add(file);
    if (!mayUseDatabase(file)) {
      problems.push({
        file,
        rule: "sql",
        message: "writes SQL: only runtime/store/ and lib/db/ talk to the database",
      });
    }
  }
  if (wholeRepository) {
    for (const file of STILL_ALLOWED.filter((entry) => !usingDatabase.has(entry))) {
      problems.push({
        file,
        message: "no longer uses the database: remove it from STILL_ALLOWED (sql-rule.mjs)",
      });
    }
  }
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.message.localeCompare(b.message));
}

async function main() {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  );
  const started = performance.now();
  const files = await sourceFiles(root);
  const problems = await checkLayers(root, files, { wholeRepository: true });
  for (const { file, message } of problems) console.error(`${file}: ${message}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    console.error(`layers: ${problems.length} problem(s) in ${files.length} files (${seconds} s)`);
    process.exit(1);
  }
  console.log(
    `layers: ${files.length} files, every import follows scripts/layers/layer-list.mjs (${seconds} s)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
