// `z.*` chains (as parsed, never run) → JSON Schema: the inverse of json-schema-to-zod.ts.
import type { PathSegment } from "@/lib/standard";
import { type Readable, readJsonValue, readObjectProperties, setProperty, UNREADABLE } from "./read-values";
import type { SourceReport } from "./source-diagnostics";
import type { Expression } from "./source-parser";
import type { SourcePosition } from "./source-tokens";

interface ChainLink {
  name: string;
  args: Expression[];
  position: SourcePosition;
}

/** `z.a(x).b(y)` → root "z" and links a(x), b(y); undefined for anything that is not such a chain. */
export function flattenCallChain(expression: Expression): { root: string; links: ChainLink[] } | undefined {
  const links: ChainLink[] = [];
  let current = expression;
  while (current.kind === "call") {
    const callee = current.callee;
    if (callee.kind !== "member") return undefined;
    links.unshift({ name: callee.property, args: current.args, position: callee.propertyPosition });
    current = callee.object;
  }
  if (current.kind !== "identifier" || links.length === 0) return undefined;
  return { root: current.name, links };
}

const SCALARS: Record<string, string> = {
  string: "string",
  number: "number",
  int: "integer",
  boolean: "boolean",
  null: "null",
};

const SUPPORTED =
  "z.object, z.string, z.number, z.int, z.boolean, z.null, z.array and z.enum, with .optional() and .describe()";

interface ReadSchema {
  schema: Record<string, unknown>;
  optional: boolean;
}

/**
 * Reads a z chain at `path`. `zodName` is the local name zod's `z` was imported as. `inProperty`
 * allows `.optional()`, which only means something on an object's property.
 */
export function readZodSchema(
  expression: Expression,
  path: readonly PathSegment[],
  report: SourceReport,
  zodName: string,
  inProperty = false,
): Readable<ReadSchema> {
  report.remember(path, expression.position);
  const chain = flattenCallChain(expression);
  if (chain === undefined || chain.root !== zodName) {
    report.error(
      "unsupported_schema",
      path,
      `Expected a z schema (${SUPPORTED}) or a JSON Schema object literal.`,
      expression.position,
    );
    return UNREADABLE;
  }
  const [base, ...modifiers] = chain.links;
  const schema = readBase(base!, path, report, zodName);
  if (schema === UNREADABLE) return UNREADABLE;
  let optional = false;
  let described = false;
  for (const modifier of modifiers) {
    if (modifier.name === "optional" && modifier.args.length === 0 && inProperty && !optional) {
      optional = true;
    } else if (modifier.name === "describe" && !described && isSingleString(modifier.args)) {
      described = true;
      setProperty(schema, "description", modifier.args[0].value);
    } else {
      report.error(
        "unsupported_schema",
        path,
        `".${modifier.name}(…)" is not supported here. Supported: ${SUPPORTED} (".optional()" only on an object's property, each at most once).`,
        modifier.position,
      );
      return UNREADABLE;
    }
  }
  return { schema, optional };
}

function isSingleString(args: Expression[]): args is [Extract<Expression, { kind: "string" }>] {
  return args.length === 1 && args[0]!.kind === "string";
}

function readBase(
  link: ChainLink,
  path: readonly PathSegment[],
  report: SourceReport,
  zodName: string,
): Readable<Record<string, unknown>> {
  const unsupported = (detail: string): typeof UNREADABLE => {
    report.error("unsupported_schema", path, `${detail} Supported: ${SUPPORTED}.`, link.position);
    return UNREADABLE;
  };
  const scalar = SCALARS[link.name];
  if (scalar !== undefined) {
    return link.args.length === 0
      ? { type: scalar }
      : unsupported(`"z.${link.name}()" takes no arguments here.`);
  }
  const [argument] = link.args;
  if (link.args.length !== 1 || argument === undefined) {
    return link.name === "object" || link.name === "array" || link.name === "enum"
      ? unsupported(`"z.${link.name}(…)" takes exactly one argument.`)
      : unsupported(`"z.${link.name}" is not supported.`);
  }
  if (link.name === "array") {
    const items = readZodSchema(argument, [...path, "items"], report, zodName);
    return items === UNREADABLE ? UNREADABLE : { type: "array", items: items.schema };
  }
  if (link.name === "enum") {
    const values = readJsonValue(argument, [...path, "enum"], report);
    if (values === UNREADABLE) return UNREADABLE;
    const valid =
      Array.isArray(values) &&
      values.length > 0 &&
      values.every((value) => typeof value === "string") &&
      new Set(values).size === values.length;
    return valid ? { type: "string", enum: values } : unsupported("z.enum needs a list of distinct strings.");
  }
  if (link.name === "object") {
    if (argument.kind !== "object")
      return unsupported("z.object needs an object literal of property schemas.");
    const required: string[] = [];
    const properties = readObjectProperties(
      argument,
      [...path, "properties"],
      report,
      (value, valuePath, key) => {
        const property = readZodSchema(value, valuePath, report, zodName, true);
        if (property === UNREADABLE) return UNREADABLE;
        if (!property.optional) required.push(key);
        return property.schema;
      },
    );
    if (properties === UNREADABLE) return UNREADABLE;
    return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
  }
  return unsupported(`"z.${link.name}" is not supported.`);
}
