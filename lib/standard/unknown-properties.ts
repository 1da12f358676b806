// Finds properties the schemas do not know (stripped on parse) and deprecated ones, so typos and old names are reported, not lost.
import { z } from "zod";
import { type Diagnostic, describeEntity, entityAtPath, formatPath, type PathSegment } from "./diagnostics";
import { closestName } from "./identifiers";
import { isSecretFieldName } from "./secrets";

interface WalkContext {
  /** The whole raw input, to name the definition a path belongs to. */
  root: unknown;
  diagnostics: Diagnostic[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where inside its definition a path points, e.g. ` in "sideA"`; empty at the definition itself. */
function locationWithinEntity(path: readonly PathSegment[]): string {
  const inner = formatPath(path.slice(2));
  return inner === "" ? "" : ` in "${inner}"`;
}

function report(
  context: WalkContext,
  diagnostic: Omit<Diagnostic, "entity">,
  path: readonly PathSegment[],
): void {
  const entity = entityAtPath(context.root, path);
  context.diagnostics.push(entity ? { ...diagnostic, entity } : diagnostic);
}

function checkObject(schema: z.ZodObject, value: unknown, path: PathSegment[], context: WalkContext): void {
  if (!isPlainObject(value)) return;
  const shape: Record<string, z.ZodType> = schema.shape;
  const owner = describeEntity(context.root, path);
  const where = locationWithinEntity(path);
  // Loose objects (JSON Schema, open option bags) keep every key; strict ones fail parsing instead.
  const reportsUnknownKeys = schema.def.catchall === undefined;
  const knownKeys = Object.keys(shape).filter((key) => {
    const meta = z.globalRegistry.get(shape[key]!);
    return meta?.deprecated !== true && !isSecretFieldName(key);
  });
  for (const [key, child] of Object.entries(value)) {
    // Own keys only: "constructor" or "toString" must not find Object.prototype's members.
    const fieldSchema = Object.hasOwn(shape, key) ? shape[key] : undefined;
    const childPath = [...path, key];
    if (fieldSchema === undefined) {
      if (!reportsUnknownKeys) continue;
      if (isSecretFieldName(key)) {
        report(
          context,
          {
            severity: "error",
            code: "literal_secret",
            path: formatPath(childPath),
            message: `${owner}${where}: "${key}" looks like a literal secret, and definitions are stored and exported in plain text. Remove it; keep secrets in env variables and refer to them by name.`,
          },
          childPath,
        );
        continue;
      }
      const suggestion = closestName(key, knownKeys);
      report(
        context,
        {
          severity: "warning",
          code: "unknown_property",
          path: formatPath(childPath),
          message: `${owner}${where}: unknown property "${key}" was ignored.${suggestion ? ` Did you mean "${suggestion}"?` : ` Known properties: ${knownKeys.join(", ")}.`}`,
        },
        childPath,
      );
      continue;
    }
    const meta = z.globalRegistry.get(fieldSchema);
    if (meta?.deprecated === true && child !== undefined) {
      report(
        context,
        {
          severity: "warning",
          code: "deprecated_property",
          path: formatPath(childPath),
          message: `${owner}${where}: "${key}" is deprecated. ${meta.description ?? ""}`.trim(),
        },
        childPath,
      );
    }
    walk(fieldSchema, child, childPath, context);
  }
}

/** The union member a value was meant for: by discriminator, else the first that accepts it, else the first of its JS type. */
function pickUnionOption(schema: z.ZodUnion, value: unknown): z.ZodType | undefined {
  const options = schema.options as readonly z.ZodType[];
  if (schema instanceof z.ZodDiscriminatedUnion && isPlainObject(value)) {
    // The values each member declares for the discriminator (literals, enums, nested unions), as zod
    // itself dispatches on them; zod refuses, when the union is made, a member that declares none.
    const discriminator = schema.def.discriminator;
    const tag = value[discriminator] as z.core.util.Primitive;
    return options.find((option) => option._zod.propValues![discriminator]!.has(tag));
  }
  const accepting = options.find((option) => option.safeParse(value).success);
  if (accepting) return accepting;
  // (A primitive may get an object member: walking it finds no properties.)
  return options.find((option) => {
    const inner = unwrap(option);
    return Array.isArray(value)
      ? inner instanceof z.ZodArray
      : inner instanceof z.ZodObject || inner instanceof z.ZodRecord;
  });
}

/** Strips wrappers that do not change an object's keys (optional, default, refinement pipes...). */
function unwrap(schema: z.ZodType): z.ZodType {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodCatch ||
    schema instanceof z.ZodNonOptional
  ) {
    return unwrap(schema.def.innerType as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) {
    const input = schema.def.in as z.ZodType;
    return unwrap(input instanceof z.ZodTransform ? (schema.def.out as z.ZodType) : input);
  }
  return schema;
}

/** Walking it finds nothing: for a union value no member was meant for. */
const NO_PROPERTIES = z.unknown();

function walk(schema: z.ZodType, value: unknown, path: PathSegment[], context: WalkContext): void {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    checkObject(inner, value, path, context);
    return;
  }
  if (inner instanceof z.ZodArray) {
    if (!Array.isArray(value)) return;
    for (const [index, item] of value.entries())
      walk(inner.element as z.ZodType, item, [...path, index], context);
    return;
  }
  if (inner instanceof z.ZodRecord) {
    if (!isPlainObject(value)) return;
    for (const [key, item] of Object.entries(value))
      walk(inner.def.valueType as z.ZodType, item, [...path, key], context);
    return;
  }
  if (inner instanceof z.ZodUnion) {
    walk(pickUnionOption(inner, value) ?? NO_PROPERTIES, value, path, context);
  }
  // Lazy schemas (JSON values) and primitives have no properties to check.
}

/**
 * Warnings for properties `schema` would strip (with a "did you mean" when one is close) and for
 * deprecated properties; errors for secret-looking properties. `root` is the raw bundle, used to name
 * the definition each finding belongs to.
 */
export function findUnknownProperties(
  schema: z.ZodType,
  value: unknown,
  path: PathSegment[] = [],
  root: unknown = value,
): Diagnostic[] {
  const context: WalkContext = { root, diagnostics: [] };
  walk(schema, value, path, context);
  return context.diagnostics;
}
