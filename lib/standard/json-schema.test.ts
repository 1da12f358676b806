import { describe, expect, it } from "vitest";
import { emptyBundle } from "./bundle";
import { JsonSchemaObjectSchema, schemaHasProperty, schemaPropertyNames } from "./json-schema";

describe("JSON Schema objects", () => {
  it("lists declared argument names in order, and none without a schema or properties", () => {
    const schema = JsonSchemaObjectSchema.parse({ type: "object", properties: { b: {}, a: true } });
    expect(schemaPropertyNames(schema)).toEqual(["b", "a"]);
    expect(schemaPropertyNames(undefined)).toEqual([]);
    expect(schemaPropertyNames({ type: "object" })).toEqual([]);
  });

  it("knows a declared property only, never one of Object.prototype", () => {
    const schema = JsonSchemaObjectSchema.parse({ properties: { city: { type: "string" } } });
    expect(schemaHasProperty(schema, "city")).toBe(true);
    expect(schemaHasProperty(schema, "country")).toBe(false);
    expect(schemaHasProperty(schema, "toString")).toBe(false);
    expect(schemaHasProperty({}, "constructor")).toBe(false);
    expect(schemaHasProperty(undefined, "city")).toBe(false);
  });

  it("accepts boolean and object property schemas, and required names, keeping other keywords", () => {
    const schema = {
      type: "object",
      properties: { a: false, b: { type: "string" } },
      required: ["b"],
      title: "T",
    };
    expect(JsonSchemaObjectSchema.parse(schema)).toEqual(schema);
    expect(JsonSchemaObjectSchema.safeParse({ properties: { a: "string" } }).success).toBe(false);
    expect(JsonSchemaObjectSchema.safeParse({ required: [1] }).success).toBe(false);
  });
});

describe("emptyBundle", () => {
  it("is a new bundle with four empty collections each time", () => {
    const first = emptyBundle();
    expect(first).toStrictEqual({ agents: [], prompts: [], models: [], tools: [] });
    first.agents.push({ name: "a", sideA: { prompt: "p" } });
    expect(emptyBundle().agents).toEqual([]);
  });
});
