import { describe, expect, it } from "vitest";
import { asJson, assetBundle, chatBundle } from "../../test/support/spec-fixtures";
import { DiagnosticSchema, formatPath, type PathSegment } from "./diagnostics";
import { parseBundle } from "./parse-bundle";
import { findPrototypeKeys } from "./prototype-keys";

/** Every object inside `value` (the root included), by path. */
function objectPaths(value: unknown, path: PathSegment[] = []): PathSegment[][] {
  if (value === null || typeof value !== "object") return [];
  const nested = Array.isArray(value)
    ? value.flatMap((item, index) => objectPaths(item, [...path, index]))
    : Object.entries(value).flatMap(([key, item]) => objectPaths(item, [...path, key]));
  return Array.isArray(value) ? nested : [path, ...nested];
}

/** The bundle as JSON text with `key` written raw into the object at `path`, parsed like a request body. */
function withRawKey(bundle: unknown, path: readonly PathSegment[], key: string, value: unknown): unknown {
  const marker = "__raw_key_marker__";
  const copy = structuredClone(bundle) as Record<string, unknown>;
  let target: Record<string | number, unknown> = copy;
  for (const segment of path) target = target[segment] as Record<string | number, unknown>;
  target[marker] = value;
  return JSON.parse(JSON.stringify(copy).replace(`"${marker}"`, JSON.stringify(key)));
}

const bundles = { asset: asJson(assetBundle()), chat: asJson(chatBundle()) };

describe("findPrototypeKeys", () => {
  it("finds own __proto__ keys at any depth, in arrays too, and nothing else", () => {
    const value = JSON.parse('{"a":[{"__proto__":{"x":1}}],"__proto__":{"__proto__":2},"constructor":{}}');
    const found = findPrototypeKeys(value);
    expect(found).toHaveLength(3);
    expect(found).toEqual(
      expect.arrayContaining([["a", 0, "__proto__"], ["__proto__"], ["__proto__", "__proto__"]]),
    );
    expect(findPrototypeKeys({ constructor: 1, prototype: 2, a: { b: [1, "x", null] } })).toEqual([]);
  });

  it("never recurses: a very deep value is walked", () => {
    const depth = 50_000;
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}{"__proto__":1}${"}".repeat(depth)}`);
    expect(findPrototypeKeys(deep)).toHaveLength(1);
  });
});

describe("parseBundle with keys that name Object.prototype's own properties", () => {
  for (const [name, bundle] of Object.entries(bundles)) {
    const paths = objectPaths(bundle);

    it(`${name}: an own "__proto__" key anywhere is an error naming its path, and nothing's prototype changes`, () => {
      expect(paths.length).toBeGreaterThan(5);
      for (const path of paths) {
        const input = withRawKey(bundle, path, "__proto__", { polluted: true });
        const result = parseBundle(input);
        const where = formatPath([...path, "__proto__"]);
        expect(result.ok, where).toBe(false);
        expect(result.diagnostics, where).toEqual([
          expect.objectContaining({ severity: "error", code: "forbidden_property", path: where }),
        ]);
        expect(result.diagnostics[0]?.message).toContain('"__proto__" is not allowed');
        expect(result.bundle).toBeUndefined();
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    });

    for (const key of ["constructor", "prototype", "toString"]) {
      it(`${name}: an own "${key}" key anywhere is plain data: no throw, well-formed diagnostics`, () => {
        for (const path of paths) {
          for (const value of [{ polluted: true }, "text"]) {
            const where = formatPath([...path, key]);
            const result = parseBundle(withRawKey(bundle, path, key, value));
            for (const diagnostic of result.diagnostics) {
              expect(
                DiagnosticSchema.safeParse(diagnostic).success,
                `${where}: ${JSON.stringify(diagnostic)}`,
              ).toBe(true);
            }
            expect(result.diagnostics.some((diagnostic) => diagnostic.code === "forbidden_property")).toBe(
              false,
            );
          }
        }
      });
    }
  }

  it("names the definition and the field", () => {
    const input = JSON.parse(
      '{"agents":[],"models":[],"tools":[],"prompts":[{"name":"chat","env":{"__proto__":"x"}}]}',
    );
    expect(parseBundle(input).diagnostics).toEqual([
      {
        severity: "error",
        code: "forbidden_property",
        path: "prompts[0].env.__proto__",
        entity: { kind: "prompt", name: "chat" },
        message:
          'Prompt "chat": "__proto__" is not allowed as a property name (it would change what the object is, not add data). Rename or remove it.',
      },
    ]);
  });

  it('an unknown "constructor" on a definition is an unknown-property warning, like any typo', () => {
    const input = JSON.parse('{"prompts":[],"models":[],"tools":[],"agents":[{"name":"a","constructor":1}]}');
    expect(parseBundle(input).diagnostics).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        code: "unknown_property",
        path: "agents[0].constructor",
      }),
    );
  });

  it('a bundle-level "constructor" list is not taken for a collection of definitions', () => {
    const input = JSON.parse('{"constructor":[{"name":"x"}]}');
    const result = parseBundle(input);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: "unknown_property", path: "constructor" }),
    ]);
    expect(result.diagnostics[0]?.entity).toBeUndefined();
  });
});
