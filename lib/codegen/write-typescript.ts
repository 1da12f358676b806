// Bundle → TypeScript with the spec's authoring API (defineAgent/definePrompt/defineModel/defineTool).
// Output is deterministic and formatted like the project's own code; secrets never appear because
// models only carry the *name* of their key's env variable.
import {
  AgentDefinitionSchema,
  type Bundle,
  ModelDefinitionSchema,
  PromptDefinitionSchema,
  ToolDefinitionSchema,
} from "@/lib/standard";
import { type Code, call, jsonCode, printCode } from "./code-printer";
import { assignDefinitionIdentifiers, DEFINITION_KINDS, type DefinitionKind } from "./definition-identifiers";
import { schemaValueCode } from "./json-schema-to-zod";

export const SPEC_PACKAGE = "@standardagents/spec";

/** The JSON Schema fields written as z chains, per kind (everything else is plain data). */
export const SCHEMA_FIELDS: Record<DefinitionKind, readonly string[]> = {
  agent: [],
  prompt: ["requiredSchema"],
  model: [],
  tool: ["args"],
};

/** Fields in the order the spec's tables list them, so every file reads the same way. */
const FIELD_ORDER: Record<DefinitionKind, readonly string[]> = {
  agent: Object.keys(AgentDefinitionSchema.shape),
  prompt: Object.keys(PromptDefinitionSchema.shape),
  model: Object.keys(ModelDefinitionSchema.shape),
  tool: [
    "name",
    "kind",
    "description",
    ...ToolDefinitionSchema.options.flatMap((option) => Object.keys(option.shape)),
  ].filter((key, index, keys) => keys.indexOf(key) === index),
};

type Definition = Bundle[keyof Bundle][number];

function orderedEntries(kind: DefinitionKind, definition: Definition): Array<[string, unknown]> {
  const order = FIELD_ORDER[kind];
  const rank = (key: string) => {
    const index = order.indexOf(key);
    return index === -1 ? order.length : index;
  };
  return Object.entries(definition)
    .filter(([, value]) => value !== undefined)
    .sort(([left], [right]) => rank(left) - rank(right));
}

/** `defineX({ ... })` for one definition. */
export function definitionCode(kind: DefinitionKind, definition: Definition): Code {
  const define = DEFINITION_KINDS.find((entry) => entry.kind === kind)!.define;
  const entries = orderedEntries(kind, definition).map(([key, value]) => ({
    key,
    value: SCHEMA_FIELDS[kind].includes(key) ? schemaValueCode(value) : jsonCode(value),
  }));
  return call(define, { kind: "object", entries, expanded: true });
}

function usesZod(code: Code): boolean {
  switch (code.kind) {
    case "literal":
      return false;
    case "object":
      return code.entries.some((entry) => usesZod(entry.value));
    case "array":
      return code.items.some(usesZod);
    case "chain":
      return code.base === "z" || code.calls.some((link) => link.args.some(usesZod));
  }
}

/** The import lines for these define* functions, plus zod when a z chain is used; sorted like the formatter sorts them. */
export function importLines(defines: Iterable<string>, zod: boolean): string[] {
  const names = [...new Set(defines)].sort();
  const lines = names.length > 0 ? [`import { ${names.join(", ")} } from "${SPEC_PACKAGE}";`] : [];
  if (zod) lines.push('import { z } from "zod";');
  return lines;
}

const MODULE_HEADER = [
  "// Standard Agents 0.1.0 definitions, exported by Tandem. Import this file back to update the project:",
  "// it is read as data (never run), so keep to literals, define* calls and z schemas.",
];

/** One module holding the whole bundle: a `const` per definition and the bundle as the default export. */
export function bundleToTypeScript(bundle: Bundle): string {
  const identifiers = assignDefinitionIdentifiers(bundle);
  const declarations: string[] = [];
  const defines = new Set<string>();
  let zod = false;
  for (const { kind, collection, define } of DEFINITION_KINDS) {
    for (const [index, definition] of bundle[collection].entries()) {
      const code = definitionCode(kind, definition);
      const name = identifiers[collection][index]!;
      const head = `export const ${name} = `;
      declarations.push(`${head}${printCode(code, head.length, 0, 1)};`);
      defines.add(define);
      zod ||= usesZod(code);
    }
  }
  const defaultExport: Code = {
    kind: "object",
    expanded: true,
    entries: DEFINITION_KINDS.map(({ collection }) => ({
      key: collection,
      value: {
        kind: "array",
        items: identifiers[collection].map((name) => ({ kind: "literal", text: name })),
      },
    })),
  };
  const sections = [
    [...MODULE_HEADER, ...importLines(defines, zod)].join("\n"),
    ...declarations,
    `export default ${printCode(defaultExport, "export default ".length, 0, 1)};`,
  ];
  return `${sections.join("\n\n")}\n`;
}

/** A file of a Standard Agents project: one definition as the default export. */
export function definitionFileSource(kind: DefinitionKind, definition: Definition): string {
  const code = definitionCode(kind, definition);
  const define = DEFINITION_KINDS.find((entry) => entry.kind === kind)!.define;
  const head = "export default ";
  return `${importLines([define], usesZod(code)).join("\n")}\n\n${head}${printCode(code, head.length, 0, 1)};\n`;
}
