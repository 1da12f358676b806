// Names for the `const` each definition is bound to in an exported module: the definition's own name
// when it is a usable identifier, otherwise a sanitised one, made unique across all kinds.
import type { Bundle } from "@/lib/standard";

export type DefinitionKind = "agent" | "prompt" | "model" | "tool";

/** The bundle's collections in the order they are written, with the define* function of each. */
export const DEFINITION_KINDS = [
  { kind: "agent", collection: "agents", define: "defineAgent", folder: "agents" },
  { kind: "prompt", collection: "prompts", define: "definePrompt", folder: "prompts" },
  { kind: "model", collection: "models", define: "defineModel", folder: "models" },
  { kind: "tool", collection: "tools", define: "defineTool", folder: "tools" },
] as const satisfies ReadonlyArray<{
  kind: DefinitionKind;
  collection: keyof Bundle;
  define: string;
  folder: string;
}>;

export type DefinitionCollection = (typeof DEFINITION_KINDS)[number]["collection"];

const RESERVED = new Set([
  ..."abstract arguments as async await boolean break byte case catch char class const continue debugger default delete do double else enum eval export extends false final finally float for from function get goto if implements import in instanceof int interface let long native new null of package private protected public return set short static super switch synchronized this throw throws transient true try typeof undefined var void volatile while with yield NaN Infinity".split(
    " ",
  ),
  "z",
  ...DEFINITION_KINDS.map((entry) => entry.define),
]);

function sanitise(name: string): string {
  const cleaned = name.replaceAll(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(cleaned) || cleaned === "" ? `_${cleaned}` : cleaned;
}

/** One identifier per definition, keyed by collection and index; deterministic for a given bundle. */
export function assignDefinitionIdentifiers(bundle: Bundle): Record<DefinitionCollection, string[]> {
  const taken = new Set<string>();
  const result = { agents: [], prompts: [], models: [], tools: [] } as Record<DefinitionCollection, string[]>;
  for (const { kind, collection } of DEFINITION_KINDS) {
    for (const definition of bundle[collection]) {
      // A definition being drawn may not have a usable name yet (the studio writes such drafts too).
      const name: unknown = definition.name;
      const base = sanitise(typeof name === "string" ? name : "");
      let candidate = RESERVED.has(base) || taken.has(base) ? `${base}_${kind}` : base;
      for (let counter = 2; RESERVED.has(candidate) || taken.has(candidate); counter++) {
        candidate = `${base}_${kind}_${counter}`;
      }
      taken.add(candidate);
      result[collection].push(candidate);
    }
  }
  return result;
}
