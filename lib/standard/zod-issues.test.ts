// Pins the wording, codes and paths diagnosticsFromZodError gives each kind of zod issue: they are what a user reads.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Diagnostic } from "./diagnostics";
import { diagnosticsFromZodError } from "./zod-issues";

/** Parses `value` with `schema` and turns the failure into diagnostics; the raw value names the definitions. */
function diagnose(schema: z.ZodType, value: unknown): Diagnostic[] {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) throw new Error("the value was expected to fail parsing");
  return diagnosticsFromZodError(parsed.error, value);
}

/** The one diagnostic for property `x` of agent "helper" (`agents[0].x`) holding `x`. */
function diagnoseField(schema: z.ZodType, x: unknown): Diagnostic {
  const bundle = z.object({ agents: z.array(z.object({ name: z.string(), x: schema })) });
  const diagnostics = diagnose(bundle, { agents: [{ name: "helper", x }] });
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0]!;
}

const helper = { kind: "agent", name: "helper" } as const;

describe("wrong types", () => {
  it.each([
    [z.string(), null, "must be a string, not null."],
    [z.number(), "3", 'must be a number, not the string "3".'],
    [z.number().int(), 2.5, "must be an integer, not number 2.5."],
    [z.boolean(), [], "must be true or false, not an array."],
    [z.object({}), true, "must be an object, not boolean true."],
    [z.array(z.string()), {}, "must be an array, not an object."],
    [z.record(z.string(), z.string()), "x", 'must be an object, not the string "x".'],
    [z.bigint(), 5, "must be bigint, not number 5."],
  ])("%# says what was expected and what was found", (schema, value, message) => {
    expect(diagnoseField(schema, value)).toStrictEqual({
      severity: "error",
      code: "invalid_type",
      path: "agents[0].x",
      message: `Agent "helper": "x" ${message}`,
      entity: helper,
    });
  });

  it("names a collection by its key and an unnamed definition by its position", () => {
    const bundle = z.object({ agents: z.array(z.object({ name: z.string().optional() })) });
    expect(diagnose(bundle, { agents: {} })).toStrictEqual([
      {
        severity: "error",
        code: "invalid_type",
        path: "agents",
        message: '"agents" must be an array, not an object.',
      },
    ]);
    expect(diagnose(bundle, { agents: [{}, 5] })).toStrictEqual([
      {
        severity: "error",
        code: "invalid_type",
        path: "agents[1]",
        message: "agents[1] must be an object, not number 5.",
      },
    ]);
    expect(diagnose(bundle, 5)).toStrictEqual([
      {
        severity: "error",
        code: "invalid_type",
        path: "",
        message: "The bundle must be an object, not number 5.",
      },
    ]);
  });

  it("says nothing was given when the whole value is missing", () => {
    expect(diagnose(z.object({}), undefined)).toStrictEqual([
      {
        severity: "error",
        code: "invalid_type",
        path: "",
        message: "The bundle must be an object, not nothing.",
      },
    ]);
  });
});

describe("missing properties", () => {
  it("names the property inside its definition", () => {
    const bundle = z.object({
      agents: z.array(z.object({ name: z.string(), sideA: z.object({ prompt: z.string() }) })),
    });
    expect(diagnose(bundle, { agents: [{ name: "helper", sideA: {} }] })).toStrictEqual([
      {
        severity: "error",
        code: "missing_property",
        path: "agents[0].sideA.prompt",
        message: 'Agent "helper": required property "sideA.prompt" is missing. Add it.',
        entity: helper,
      },
    ]);
  });

  it("names a missing top-level or second-level property by its own name", () => {
    expect(diagnose(z.object({ agents: z.array(z.string()) }), {})).toStrictEqual([
      {
        severity: "error",
        code: "missing_property",
        path: "agents",
        message: 'The bundle: required property "agents" is missing. Add it.',
      },
    ]);
    expect(diagnose(z.object({ settings: z.object({ mode: z.string() }) }), { settings: {} })).toStrictEqual([
      {
        severity: "error",
        code: "missing_property",
        path: "settings.mode",
        message: 'settings: required property "mode" is missing. Add it.',
      },
    ]);
  });
});

describe("values outside a set", () => {
  it("lists the allowed values", () => {
    expect(diagnoseField(z.enum(["ai_human", "dual_ai", "solo_ai"]), "solo")).toStrictEqual({
      severity: "error",
      code: "invalid_value",
      path: "agents[0].x",
      message: 'Agent "helper": "x" is "solo"; it must be one of "ai_human", "dual_ai", "solo_ai".',
      entity: helper,
    });
  });

  it("uses a message written in the schema, after where it applies", () => {
    expect(diagnoseField(z.enum(["a", "b"], { error: "pick a or b" }), "c")).toStrictEqual({
      severity: "error",
      code: "invalid_value",
      path: "agents[0].x",
      message: 'Agent "helper" at "x": pick a or b',
      entity: helper,
    });
    expect(diagnoseField(z.enum(["a", "b"], { error: "pick a or b" }), "c").message).toBe(
      'Agent "helper" at "x": pick a or b',
    );
    // A written message that merely contains a default word is still the schema's own.
    expect(diagnoseField(z.enum(["a", "b"], { error: "Not Invalid here" }), "c").message).toBe(
      'Agent "helper" at "x": Not Invalid here',
    );
  });
});

describe("sizes and ranges", () => {
  it.each([
    [z.number().min(1), 0, "out_of_range", "must be at least 1."],
    [z.number().positive(), 0, "out_of_range", "must be greater than 0."],
    [z.number().max(5), 6, "out_of_range", "must be at most 5."],
    [z.number().lt(5), 5, "out_of_range", "must be less than 5."],
    [z.string().min(3), "ab", "invalid_value", "must be at least 3 characters long."],
    [z.string().max(1), "ab", "invalid_value", "must be at most 1 characters long."],
    [z.array(z.string()).min(2), ["a"], "invalid_value", "must be at least 2 items long."],
    [z.array(z.string()).max(1), ["a", "b"], "invalid_value", "must be at most 1 items long."],
  ])("%# gives the bound and its unit", (schema, value, code, message) => {
    expect(diagnoseField(schema, value)).toStrictEqual({
      severity: "error",
      code,
      path: "agents[0].x",
      message: `Agent "helper": "x" ${message}`,
      entity: helper,
    });
  });

  it("counts the items of a set", () => {
    const [diagnostic] = diagnose(z.object({ tags: z.set(z.string()).min(2) }), { tags: new Set(["a"]) });
    expect(diagnostic?.message).toBe('"tags" must be at least 2 items long.');
  });

  it("calls a required text or list left empty empty", () => {
    for (const schema of [z.string().min(1), z.array(z.string()).min(1), z.set(z.string()).min(1)]) {
      const empty = schema instanceof z.ZodString ? "" : schema instanceof z.ZodArray ? [] : new Set();
      expect(diagnoseField(schema, empty)).toStrictEqual({
        severity: "error",
        code: "empty_value",
        path: "agents[0].x",
        message: 'Agent "helper": "x" must not be empty.',
        entity: helper,
      });
    }
  });

  it("asks for a name when a definition's own name is empty, and only then", () => {
    const named = z.object({
      agents: z.array(z.object({ name: z.string().min(1) })),
      models: z.array(z.object({ name: z.string().min(1) })),
      labels: z.array(z.object({ name: z.string().min(1) })),
    });
    expect(
      diagnose(named, { agents: [{ name: "" }], models: [{ name: "" }], labels: [{ name: "" }] }),
    ).toStrictEqual([
      {
        severity: "error",
        code: "empty_value",
        path: "agents[0].name",
        message: "This agent has no name: give it one.",
      },
      {
        severity: "error",
        code: "empty_value",
        path: "models[0].name",
        message: "This model has no name: give it one.",
      },
      {
        severity: "error",
        code: "empty_value",
        path: "labels[0].name",
        message: 'labels[0]: "name" must not be empty.',
      },
    ]);
    const nested = z.object({ agents: z.array(z.object({ name: z.array(z.string().min(1)) })) });
    expect(diagnose(nested, { agents: [{ name: [""] }] })[0]?.message).toBe(
      'agents[0]: "name[0]" must not be empty.',
    );
    const notName = z.object({ agents: z.array(z.object({ name: z.string(), title: z.string().min(1) })) });
    expect(diagnose(notName, { agents: [{ name: "a", title: "" }] })[0]?.message).toBe(
      'Agent "a": "title" must not be empty.',
    );
  });
});

describe("formats, refinements and other issues", () => {
  it("says which format a text is not", () => {
    expect(diagnoseField(z.email(), "x")).toStrictEqual({
      severity: "error",
      code: "invalid_format",
      path: "agents[0].x",
      message: 'Agent "helper": "x" is not a valid email.',
      entity: helper,
    });
  });

  it("uses a format message written in the schema", () => {
    expect(diagnoseField(z.url({ error: "must be an http(s) URL" }), "nope").message).toBe(
      'Agent "helper" at "x": must be an http(s) URL',
    );
  });

  it("takes a refinement's code when it is a diagnostic code, else invalid_value", () => {
    const refined = (params?: Record<string, unknown>) =>
      z.string().refine(() => false, { message: "is not known", ...(params ? { params } : {}) });
    expect(diagnoseField(refined({ code: "unknown_model" }), "m")).toStrictEqual({
      severity: "error",
      code: "unknown_model",
      path: "agents[0].x",
      message: 'Agent "helper" at "x": is not known',
      entity: helper,
    });
    expect(diagnoseField(refined({ code: "not_a_code" }), "m").code).toBe("invalid_value");
    expect(diagnoseField(refined({ code: 5 }), "m").code).toBe("invalid_value");
    expect(diagnoseField(refined(), "m").code).toBe("invalid_value");
  });

  it("lists unknown properties of a strict object", () => {
    expect(diagnoseField(z.strictObject({ a: z.string() }), { a: "x", b: 1, c: 2 })).toStrictEqual({
      severity: "error",
      code: "unknown_property",
      path: "agents[0].x",
      message: 'Agent "helper": "x" has unknown properties: b, c.',
      entity: helper,
    });
  });

  it("passes other issues on with their own message", () => {
    expect(diagnoseField(z.number().multipleOf(5), 7)).toStrictEqual({
      severity: "error",
      code: "invalid_value",
      path: "agents[0].x",
      message: 'Agent "helper" at "x": Invalid number: must be a multiple of 5',
      entity: helper,
    });
  });

  it("writes a symbol in a path as its description", () => {
    const schema = z.object({}).superRefine((_value, context) => {
      context.addIssue({ code: "custom", path: [Symbol("key")], message: "is odd" });
    });
    expect(diagnose(schema, {})).toStrictEqual([
      {
        severity: "error",
        code: "invalid_value",
        path: '["Symbol(key)"]',
        message: '["Symbol(key)"]: is odd',
      },
    ]);
  });
});

describe("where a written message applies", () => {
  const refinedAt = (message: string) =>
    z.object({
      agents: z.array(
        z.object({
          name: z.string(),
          sideA: z.object({
            apiKey: z.string().refine(() => false, message),
            steps: z.array(z.string().refine(() => false, message)),
          }),
          apiKey: z.string().refine(() => false, message),
        }),
      ),
    });
  const input = { agents: [{ name: "helper", sideA: { apiKey: "k", steps: ["s"] }, apiKey: "k" }] };

  it("gives the containing object when the message names the property, else the property", () => {
    expect(diagnose(refinedAt('"apiKey" holds a secret'), input).map((entry) => entry.message)).toEqual([
      'Agent "helper" in "sideA": "apiKey" holds a secret',
      'Agent "helper" at "sideA.steps[0]": "apiKey" holds a secret',
      'Agent "helper": "apiKey" holds a secret',
    ]);
    expect(diagnose(refinedAt("holds a secret"), input).map((entry) => entry.message)).toEqual([
      'Agent "helper" at "sideA.apiKey": holds a secret',
      'Agent "helper" at "sideA.steps[0]": holds a secret',
      'Agent "helper" at "apiKey": holds a secret',
    ]);
  });

  it("does not take an index quoted in the message for a property name", () => {
    expect(diagnose(refinedAt('step "0" is empty'), input)[1]?.message).toBe(
      'Agent "helper" at "sideA.steps[0]": step "0" is empty',
    );
  });
});

describe("unions", () => {
  it("lists the types the members expected, once each, when none took the value's type", () => {
    expect(diagnoseField(z.union([z.string(), z.object({ name: z.string() })]), 5).message).toBe(
      'Agent "helper": "x" must be a string or an object, not number 5.',
    );
    expect(diagnoseField(z.union([z.string().min(2), z.string().email()]), 5)).toStrictEqual({
      severity: "error",
      code: "invalid_type",
      path: "agents[0].x",
      message: 'Agent "helper": "x" must be a string, not number 5.',
      entity: helper,
    });
  });

  it("reports what is wrong inside the one member that took the value's type, at its full path", () => {
    const schema = z.union([z.string(), z.object({ name: z.string(), messageProperty: z.string() })]);
    expect(diagnoseField(schema, { messageProperty: "reason" })).toStrictEqual({
      severity: "error",
      code: "missing_property",
      path: "agents[0].x.name",
      message: 'Agent "helper": required property "x.name" is missing. Add it.',
      entity: helper,
    });
  });

  it("counts a fixed-value member that refused the value as the wrong kind too", () => {
    const schema = z.union([z.literal("none"), z.object({ name: z.string() })]);
    expect(diagnoseField(schema, {})).toStrictEqual({
      severity: "error",
      code: "missing_property",
      path: "agents[0].x.name",
      message: 'Agent "helper": required property "x.name" is missing. Add it.',
      entity: helper,
    });
  });

  it("counts a member that refused the value's type as such, however many issues it raised", () => {
    const both = z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() }));
    expect(diagnoseField(z.union([both, z.string()]), 5).message).toBe(
      'Agent "helper": "x" must be an object or a string, not number 5.',
    );
  });

  it("says a value is not valid when several members took its type, or none said which type", () => {
    const objects = z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]);
    expect(diagnoseField(objects, {})).toStrictEqual({
      severity: "error",
      code: "invalid_value",
      path: "agents[0].x",
      message: 'Agent "helper": "x" is not valid.',
      entity: helper,
    });
    expect(diagnoseField(z.union([z.literal("a"), z.literal("b")]), "c").message).toBe(
      'Agent "helper": "x" is not valid.',
    );
    expect(
      diagnoseField(z.union([z.literal("a"), z.literal("b")], { error: "use a or b" }), "c").message,
    ).toBe('Agent "helper" at "x": use a or b');
  });

  it("reports an unknown discriminator at the discriminator", () => {
    const kinds = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("http") }),
      z.object({ kind: z.literal("code") }),
    ]);
    expect(diagnoseField(kinds, { kind: "shell" })).toStrictEqual({
      severity: "error",
      code: "invalid_value",
      path: "agents[0].x.kind",
      message: 'Agent "helper": "x.kind" is not valid.',
      entity: helper,
    });
  });
});
