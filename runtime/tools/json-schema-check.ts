// A small JSON Schema checker for tool and prompt arguments (type, required, properties, enum,
// items, nested objects) — enough to tell a model precisely what it got wrong. Pure.
export interface SchemaIssue {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

export function checkJsonSchema(
  schema: Schema | undefined,
  value: unknown,
  path: string[] = [],
): SchemaIssue[] {
  if (!schema) return [];
  const where = path.join(".") || "root";
  const types =
    typeof schema.type === "string"
      ? [schema.type]
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : [];
  if (types.length > 0 && !types.some((type) => matchesType(value, type))) {
    return [{ path: where, message: `expected ${types.join(" or ")}, received ${typeOf(value)}` }];
  }
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))
  ) {
    return [
      {
        path: where,
        message: `must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}`,
      },
    ];
  }
  const issues: SchemaIssue[] = [];
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      if (object[name] === undefined) issues.push({ path: [...path, name].join("."), message: "Required" });
    }
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [name, propertySchema] of Object.entries(properties)) {
      if (object[name] !== undefined)
        issues.push(...checkJsonSchema(propertySchema, object[name], [...path, name]));
    }
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === "object") {
    for (const [index, item] of value.entries()) {
      issues.push(...checkJsonSchema(schema.items as Schema, item, [...path, String(index)]));
    }
  }
  return issues;
}

export function formatSchemaIssues(issues: SchemaIssue[]): string {
  return issues.map((issue) => `[${issue.path}] ${issue.message}`).join("; ");
}
