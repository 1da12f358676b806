// The import rules derived from the ordered layer list (layer-list.mjs) and the SQL rule
// (sql-rule.mjs): which layer a path belongs to, and what is wrong with one import or one file.
import { LAYER_ROWS } from "./layer-list.mjs";
import {
  isCheckedForSql,
  isDatabaseHome,
  NOT_SQL_CLIENT,
  SQL_CLIENT_PACKAGES,
  STILL_ALLOWED,
} from "./sql-rule.mjs";

const SOURCE_EXTENSION = /\.(d\.)?(tsx?|mts|cts|mjs|cjs|js|jsx)$/;

/** A path without its source extension: `runtime/store/x.ts` → `runtime/store/x`. */
export function stemOf(file) {
  return file.replace(SOURCE_EXTENSION, "");
}

/** Every layer with its row (0 = top) and the specificity of each path it owns. */
const LAYERS = LAYER_ROWS.flatMap((row, index) => row.map((layer) => ({ ...layer, row: index })));
const BY_NAME = new Map(LAYERS.map((layer) => [layer.name, layer]));

/** How specifically `pattern` matches `stem` (0: not at all); "**\/*.x" suffixes beat any folder. */
function specificity(pattern, stem) {
  if (pattern.startsWith("**/*")) return stem.endsWith(pattern.slice(4)) ? 10_000 : 0;
  if (pattern.endsWith("/")) {
    return stem === pattern.slice(0, -1) || stem.startsWith(pattern) ? pattern.length : 0;
  }
  return stem === pattern ? pattern.length + 1 : 0;
}

/** The layer that owns a repository path (with or without extension), or undefined. */
export function layerOf(file) {
  return bestLayer(file, () => true);
}

/** The layer whose path patterns (those `usable` keeps) match `file` most specifically. */
function bestLayer(file, usable) {
  const stem = stemOf(file);
  let best;
  let bestScore = 0;
  for (const layer of LAYERS) {
    for (const pattern of layer.paths.filter(usable)) {
      const score = specificity(pattern, stem);
      if (score > bestScore) {
        best = layer;
        bestScore = score;
      }
    }
  }
  return best;
}

/** The layer of the folder a file sits in, ignoring "**\/*.x" patterns: a colocated test's home. */
function homeLayerOf(file) {
  return bestLayer(file, (pattern) => !pattern.startsWith("**/*"));
}

/** The layer a name refers to (the list's own names), or undefined. */
export function layerNamed(name) {
  return BY_NAME.get(name);
}

/** Why `from` may not import `to` (two layers), or null when the list allows it. */
export function forbiddenReason(from, to, targetStem) {
  if (from.name === to.name) return null;
  if (to.row < from.row)
    return `${from.name} may not import ${to.name}: it is a layer above (docs/runtime.md)`;
  if (to.row === from.row)
    return `${from.name} may not import ${to.name}: peers on one row never import each other`;
  const never = from.never?.find((rule) => rule.layer === to.name);
  if (never) return `${from.name} may not import ${to.name}: ${never.why}`;
  if (to.side === "server" && (from.side === "client" || from.side === "shared")) {
    return `${from.name} runs in the browser too and may not import the server layer ${to.name}`;
  }
  if (to.side === "server" && from.serverEntries && !from.serverEntries.includes(targetStem)) {
    return `${from.name} reaches the server only through ${from.serverEntries.join(", ")}`;
  }
  return null;
}

/** What the layer list says about one import edge (see import-graph.mjs): a message, or null. */
export function layerProblem(edge) {
  const from = layerOf(edge.from);
  if (!from || !edge.target) return null; // a file in no layer is reported once, by fileProblem
  const to = layerOf(edge.target);
  if (!to) return `imports ${edge.specifier}, which belongs to no layer (scripts/layers/layer-list.mjs)`;
  if (homeLayerOf(edge.from)?.name === to.name) return null; // a colocated test imports its own folder
  const reason = forbiddenReason(from, to, stemOf(edge.target));
  return reason ? `imports ${edge.specifier}: ${reason}` : null;
}

/** What the SQL rule says about one import edge: a message, or null. */
export function sqlImportProblem(edge) {
  if (!isSqlClientImport(edge) || !isCheckedForSql(edge.from) || mayUseDatabase(edge.from)) return null;
  return `imports the SQL client's values from ${edge.specifier}: only runtime/store/ and lib/db/ do (a type needs only "import type")`;
}

/** True when an edge is a value import of something that opens or runs SQL. */
export function isSqlClientImport(edge) {
  if (edge.typeOnly) return false;
  if (edge.package) return SQL_CLIENT_PACKAGES.includes(edge.package);
  const stem = stemOf(edge.target);
  return stem.startsWith("lib/db/") && !NOT_SQL_CLIENT.includes(stem);
}

/** True when `file` may use the database directly: a database home or a file still allowed. */
export function mayUseDatabase(file) {
  return isDatabaseHome(file) || STILL_ALLOWED.includes(file);
}

/** The problem with a file itself (its layer), or null. */
export function fileProblem(file) {
  return layerOf(file) ? null : "belongs to no layer: add its folder to scripts/layers/layer-list.mjs";
}
