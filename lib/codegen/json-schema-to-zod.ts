// JSON Schema → `z.*` code, for the schemas a z chain can say exactly. The mapping is one-to-one with
// zod-to-json-schema.ts, so an import gives back the very schema that was exported; a schema using
// anything else (formats, bounds, defaults, `required: []`…) returns undefined and is written as a literal.
import { type Code, jsonCode, stringCode } from "./code-printer";

type JsonSchema = Record<string, unknown>;

const z = (name: string, ...args: Code[]): Code => ({ kind: "chain", base: "z", calls: [{ name, args }] });

const SCALAR_TYPES: Record<string, string> = {
  string: "string",
  number: "number",
  integer: "int",
  boolean: "boolean",
  null: "null",
};

function isPlainObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(schema: JsonSchema, allowed: readonly string[]): boolean {
  return Object.keys(schema).every((key) => allowed.includes(key));
}

/** The z chain for an argument or input schema, or undefined when it has no exact z form. */
export function jsonSchemaToZodCode(schema: unknown): Code | undefined {
  return schemaCode(schema, false);
}

function withModifiers(base: Code, schema: JsonSchema, optional: boolean): Code | undefined {
  if (base.kind !== "chain") return base;
  const calls = [...base.calls];
  if (optional) calls.push({ name: "optional", args: [] });
  if (schema.description !== undefined) {
    if (typeof schema.description !== "string") return undefined;
    calls.push({ name: "describe", args: [stringCode(schema.description)] });
  }
  return { ...base, calls };
}

function schemaCode(schema: unknown, optional: boolean): Code | undefined {
  if (!isPlainObject(schema)) return undefined;
  const base = baseCode(schema);
  return base === undefined ? undefined : withModifiers(base, schema, optional);
}

function baseCode(schema: JsonSchema): Code | undefined {
  const type = schema.type;
  if (type === "object") return objectCode(schema);
  if (type === "array") {
    if (!hasOnlyKeys(schema, ["type", "items", "description"])) return undefined;
    const items = schemaCode(schema.items, false);
    return items === undefined ? undefined : z("array", items);
  }
  if (type === "string" && schema.enum !== undefined) {
    if (!hasOnlyKeys(schema, ["type", "enum", "description"])) return undefined;
    const values = schema.enum;
    const valid =
      Array.isArray(values) &&
      values.length > 0 &&
      values.every((value) => typeof value === "string") &&
      new Set(values).size === values.length;
    return valid ? z("enum", jsonCode(values)) : undefined;
  }
  const scalar = typeof type === "string" ? SCALAR_TYPES[type] : undefined;
  if (scalar === undefined || !hasOnlyKeys(schema, ["type", "description"])) return undefined;
  return z(scalar);
}

/**
 * `z.object({...})` is `{ type: "object", properties, required }` with `required` listing the
 * non-optional properties in property order, and left out when there are none.
 */
function objectCode(schema: JsonSchema): Code | undefined {
  if (!hasOnlyKeys(schema, ["type", "properties", "required", "description"])) return undefined;
  const properties = schema.properties;
  if (!isPlainObject(properties)) return undefined;
  const names = Object.keys(properties);
  const required = schema.required;
  if (required !== undefined) {
    const expected = names.filter((name) => (required as unknown[]).includes(name));
    const exact =
      Array.isArray(required) &&
      required.length > 0 &&
      required.length === expected.length &&
      required.every((name, index) => name === expected[index]);
    if (!exact) return undefined;
  }
  const entries: Array<{ key: string; value: Code }> = [];
  for (const name of names) {
    const isRequired = Array.isArray(required) && required.includes(name);
    const value = schemaCode(properties[name], !isRequired);
    if (value === undefined) return undefined;
    entries.push({ key: name, value });
  }
  return z("object", { kind: "object", entries });
}

/** The schema as a z chain when it has one, otherwise as a plain object literal. */
export function schemaValueCode(schema: unknown): Code {
  return jsonSchemaToZodCode(schema) ?? jsonCode(schema);
}
