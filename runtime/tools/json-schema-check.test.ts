import { describe, expect, it } from "vitest";
import { checkJsonSchema, formatSchemaIssues } from "./json-schema-check";

const schema = {
  type: "object",
  properties: {
    topic: { type: "string" },
    count: { type: "integer" },
    mode: { enum: ["fast", "slow"] },
    tags: { type: "array", items: { type: "string" } },
    nested: { type: "object", properties: { depth: { type: "number" } }, required: ["depth"] },
  },
  required: ["topic"],
};

describe("checkJsonSchema", () => {
  it("accepts valid arguments", () => {
    expect(
      checkJsonSchema(schema, { topic: "x", count: 2, mode: "fast", tags: ["a"], nested: { depth: 1.5 } }),
    ).toEqual([]);
  });

  it("reports missing, mistyped, out-of-enum and nested problems with paths", () => {
    const issues = checkJsonSchema(schema, { count: 1.5, mode: "medium", tags: ["a", 2], nested: {} });
    expect(formatSchemaIssues(issues)).toBe(
      '[topic] Required; [count] expected integer, received number; [mode] must be one of "fast", "slow"; [tags.1] expected string, received integer; [nested.depth] Required',
    );
  });

  it("reports a wrong root type", () => {
    expect(checkJsonSchema(schema, "text")).toEqual([
      { path: "root", message: "expected object, received string" },
    ]);
  });
});
