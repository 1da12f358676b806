// Pins findUnknownProperties: which keys are reported, where, in which words, and through which schema wrappers it looks.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asJson, chatBundle } from "../../test/support/spec-fixtures";
import { BundleSchema } from "./bundle";
import { findUnknownProperties } from "./unknown-properties";

/** The chat example as JSON, to change before parsing. */
function chatInput() {
  return asJson(chatBundle()) as {
    agents: Array<Record<string, unknown> & { sideA: Record<string, unknown> }>;
    models: Array<Record<string, unknown>>;
  } & Record<string, unknown>;
}

const messagesOf = (schema: z.ZodType, value: unknown) =>
  findUnknownProperties(schema, value).map((diagnostic) => `${diagnostic.path}: ${diagnostic.message}`);

describe("findUnknownProperties on bundles", () => {
  it("lists the known properties, without deprecated or secret ones, when no name is close", () => {
    const input = chatInput();
    input.zzz = 1;
    input.agents[0]!.qqqqqqq = 1;
    input.agents[0]!.sideA.qqqqqqqqq = 2;
    input.models[0]!.qqqqqqq = 3;
    expect(findUnknownProperties(BundleSchema, input)).toStrictEqual([
      {
        severity: "warning",
        code: "unknown_property",
        path: "agents[0].sideA.qqqqqqqqq",
        message:
          'Agent "assistant" in "sideA": unknown property "qqqqqqqqq" was ignored. Known properties: prompt, label, stopOnResponse, stopTool, stopToolResponseProperty, maxSteps, sessionStop, sessionFail, sessionStatus.',
        entity: { kind: "agent", name: "assistant" },
      },
      {
        severity: "warning",
        code: "unknown_property",
        path: "agents[0].qqqqqqq",
        message:
          'Agent "assistant": unknown property "qqqqqqq" was ignored. Known properties: name, type, sideA, sideB, maxSessionTurns, title, description, icon, exposeAsTool, toolDescription, env, hooks, packageName, version, author, license.',
        entity: { kind: "agent", name: "assistant" },
      },
      {
        severity: "warning",
        code: "unknown_property",
        path: "models[0].qqqqqqq",
        message:
          'Model "assistant_model": unknown property "qqqqqqq" was ignored. Known properties: name, provider, model, baseURL, apiKeyEnv, apiKeyCredential, fallbacks, includedProviders, inputPrice, outputPrice, cachedPrice, capabilities, providerOptions, providerTools, script, scriptLoopFrom.',
        entity: { kind: "model", name: "assistant_model" },
      },
      {
        severity: "warning",
        code: "unknown_property",
        path: "zzz",
        message:
          'The bundle: unknown property "zzz" was ignored. Known properties: agents, prompts, models, tools.',
      },
    ]);
  });

  it("reports keys named like Object's members as unknown, not as those members", () => {
    const input = chatInput();
    Object.assign(input.agents[0]!, { constructor: 1 });
    Object.assign(input.agents[0]!.sideA, { toString: "x" });
    expect(findUnknownProperties(BundleSchema, input).map((diagnostic) => diagnostic.path)).toEqual([
      "agents[0].sideA.toString",
      "agents[0].constructor",
    ]);
  });

  it("says where a literal secret is, inside the definition or at its top", () => {
    const input = chatInput();
    input.agents[0]!.password = "hunter2";
    input.agents[0]!.sideA.token = "t";
    expect(findUnknownProperties(BundleSchema, input)).toStrictEqual([
      {
        severity: "error",
        code: "literal_secret",
        path: "agents[0].sideA.token",
        message:
          'Agent "assistant" in "sideA": "token" looks like a literal secret, and definitions are stored and exported in plain text. Remove it; keep secrets in env variables and refer to them by name.',
        entity: { kind: "agent", name: "assistant" },
      },
      {
        severity: "error",
        code: "literal_secret",
        path: "agents[0].password",
        message:
          'Agent "assistant": "password" looks like a literal secret, and definitions are stored and exported in plain text. Remove it; keep secrets in env variables and refer to them by name.',
        entity: { kind: "agent", name: "assistant" },
      },
    ]);
  });

  it("looks for no properties in definitions that are arrays or null", () => {
    expect(findUnknownProperties(BundleSchema, { agents: [["a"], null, "x"], tools: { zzz: 1 } })).toEqual(
      [],
    );
  });

  it("names an unnamed definition by its position, without an entity", () => {
    expect(findUnknownProperties(BundleSchema, { agents: [{ sideA: { zzzzzzz: 1 } }] })).toStrictEqual([
      {
        severity: "warning",
        code: "unknown_property",
        path: "agents[0].sideA.zzzzzzz",
        message:
          'agents[0] in "sideA": unknown property "zzzzzzz" was ignored. Known properties: prompt, label, stopOnResponse, stopTool, stopToolResponseProperty, maxSteps, sessionStop, sessionFail, sessionStatus.',
      },
    ]);
  });
});

describe("findUnknownProperties on any schema", () => {
  it("suggests the closest known name", () => {
    expect(messagesOf(z.object({ maxSteps: z.number() }), { maxStep: 1 })).toEqual([
      'maxStep: The bundle: unknown property "maxStep" was ignored. Did you mean "maxSteps"?',
    ]);
  });

  it("warns about a deprecated property that is set, with its advice or without", () => {
    const schema = z.object({
      old: z.string().optional().meta({ deprecated: true }),
      older: z.string().optional().meta({ deprecated: true, description: "Use new." }),
      current: z.string().optional(),
    });
    expect(messagesOf(schema, { old: "a", older: "b", olde: "c" })).toEqual([
      'old: The bundle: "old" is deprecated.',
      'older: The bundle: "older" is deprecated. Use new.',
      'olde: The bundle: unknown property "olde" was ignored. Known properties: current.',
    ]);
    expect(findUnknownProperties(schema, { old: undefined, current: "x" })).toEqual([]);
  });

  it("skips the keys of loose objects and walks into their known ones", () => {
    const schema = z.looseObject({ inner: z.object({ a: z.string() }) });
    expect(messagesOf(schema, { anything: 1, inner: { a: "x", ab: 2 } })).toEqual([
      'inner.ab: inner: unknown property "ab" was ignored. Did you mean "a"?',
    ]);
  });

  it("walks arrays and records only when the value is one", () => {
    const schema = z.object({
      list: z.array(z.object({ a: z.string() })),
      map: z.record(z.string(), z.object({ a: z.string() })),
    });
    expect(
      messagesOf(schema, { list: [{ b: 1 }], map: { k: { b: 2 } } }).map((line) => line.split(":")[0]),
    ).toEqual(["list[0].b", "map.k.b"]);
    expect(findUnknownProperties(schema, { list: { 0: { b: 1 } }, map: [{ b: 2 }] })).toEqual([]);
    expect(findUnknownProperties(schema, { list: "x", map: null })).toEqual([]);
  });

  it("looks through wrappers that keep an object's keys", () => {
    const inner = z.object({ a: z.string() });
    const wrapped = {
      optional: inner.optional(),
      nullable: inner.nullable(),
      withDefault: inner.default({ a: "x" }),
      prefault: inner.prefault({ a: "x" }),
      readonly: inner.readonly(),
      catching: inner.catch({ a: "x" }),
      nonOptional: inner.optional().nonoptional(),
      refined: inner.refine(() => true),
      piped: inner.pipe(z.object({ a: z.string() })),
      preprocessed: z.preprocess((input) => input, inner),
    };
    const value = Object.fromEntries(Object.keys(wrapped).map((key) => [key, { a: "x", b: 1 }]));
    expect(findUnknownProperties(z.object(wrapped), value).map((diagnostic) => diagnostic.path)).toEqual(
      Object.keys(wrapped).map((key) => `${key}.b`),
    );
  });

  it("follows the discriminator to the member a value was meant for", () => {
    const schema = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("http"), url: z.string() }),
      z.object({ kind: z.literal(["code", "script"]), module: z.string() }),
    ]);
    expect(messagesOf(schema, { kind: "script", module: "m", url: "u" })).toEqual([
      'url: The bundle: unknown property "url" was ignored. Known properties: kind, module.',
    ]);
    expect(messagesOf(schema, { kind: "http", url: "u", module: "m" })).toEqual([
      'module: The bundle: unknown property "module" was ignored. Known properties: kind, url.',
    ]);
    expect(findUnknownProperties(schema, { kind: "shell", module: "m", url: "u" })).toEqual([]);
    expect(findUnknownProperties(schema, ["x"])).toEqual([]);
  });

  it("follows enum tags and members that are themselves wrapped", () => {
    const schema = z.discriminatedUnion("kind", [
      z.object({ kind: z.enum(["a", "b"]), first: z.string() }),
      z.object({ kind: z.literal("c"), second: z.string() }).transform((value) => value),
    ]);
    expect(messagesOf(schema, { kind: "b", first: "1", second: "2" })).toEqual([
      'second: The bundle: unknown property "second" was ignored. Known properties: kind, first.',
    ]);
    expect(messagesOf(schema, { kind: "c", first: "1", second: "2" })).toEqual([
      'first: The bundle: unknown property "first" was ignored. Known properties: kind, second.',
    ]);
  });

  it("picks the union member that accepts a value, else the first of the value's JSON type", () => {
    const schema = z.union([
      z.string(),
      z.object({ name: z.string() }),
      z.object({ id: z.number() }),
      z.array(z.object({ item: z.string() })),
    ]);
    // Accepted by the second object member (the first needs a name).
    expect(messagesOf(schema, { id: 1, extra: true }).map((line) => line.split(":")[0])).toEqual(["extra"]);
    // Accepted by none: the first object member is the one it was meant for.
    expect(messagesOf(schema, { nam: "x" })).toEqual([
      'nam: The bundle: unknown property "nam" was ignored. Did you mean "name"?',
    ]);
    expect(messagesOf(schema, [{ itm: "x" }, 5])).toEqual([
      '[0].itm: [0]: unknown property "itm" was ignored. Did you mean "item"?',
    ]);
    const records = z.union([z.string(), z.record(z.string(), z.object({ a: z.string() }))]);
    expect(messagesOf(records, { k: { b: 1 } }).map((line) => line.split(":")[0])).toEqual(["k.b"]);
    expect(findUnknownProperties(schema, 5)).toEqual([]);
    expect(findUnknownProperties(z.union([z.object({ a: z.string() })]), 5)).toEqual([]);
    expect(findUnknownProperties(z.union([z.object({ a: z.string() })]), [{ b: 1 }])).toEqual([]);
  });

  it("starts at a given path and names definitions from the given root", () => {
    const root = { agents: [{ name: "helper", sideA: { zzzzzz: 1 } }] };
    const sideA = z.object({ prompt: z.string().optional() });
    expect(findUnknownProperties(sideA, root.agents[0]!.sideA, ["agents", 0, "sideA"], root)).toStrictEqual([
      {
        severity: "warning",
        code: "unknown_property",
        path: "agents[0].sideA.zzzzzz",
        message:
          'Agent "helper" in "sideA": unknown property "zzzzzz" was ignored. Known properties: prompt.',
        entity: { kind: "agent", name: "helper" },
      },
    ]);
  });
});
