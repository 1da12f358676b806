// Every reference of every definition kind, pointed at a name that does not exist, one at a time: each
// must be reported on its own path with its own code, and nothing else may be reported but what follows
// from it.
import { describe, expect, it } from "vitest";
import { assetBundle, summarize } from "../../test/support/spec-fixtures";
import type { Bundle } from "./bundle";
import { formatPath, type PathSegment } from "./diagnostics";
import { parseBundle } from "./parse-bundle";

/** The asset example with one reference of each kind it lacks: a stopTool on each side and a fallback. */
function richBundle(): Bundle {
  const bundle = assetBundle();
  const subagent = bundle.agents[1]!;
  subagent.sideA.stopTool = "fail_asset";
  subagent.sideB!.stopTool = "approve_asset";
  bundle.models[0]!.fallbacks = [bundle.models[1]!.name];
  return bundle;
}

interface Reference {
  kind: "agent" | "prompt" | "model" | "tool";
  path: PathSegment[];
  code: string;
}

/** Every place a definition names another, found by walking the bundle, never listed by hand. */
function references(bundle: Bundle): Reference[] {
  const found: Reference[] = [];
  bundle.agents.forEach((agent, index) => {
    for (const sideKey of ["sideA", "sideB"] as const) {
      const side = agent[sideKey];
      if (side === undefined) continue;
      found.push({ kind: "agent", path: ["agents", index, sideKey, "prompt"], code: "unknown_prompt" });
      if (side.stopTool !== undefined)
        found.push({
          kind: "agent",
          path: ["agents", index, sideKey, "stopTool"],
          code: "stop_tool_not_callable",
        });
    }
  });
  bundle.prompts.forEach((prompt, index) => {
    found.push({ kind: "prompt", path: ["prompts", index, "model"], code: "unknown_model" });
    if (Array.isArray(prompt.prompt))
      prompt.prompt.forEach((part, partIndex) => {
        if (part.type === "include")
          found.push({
            kind: "prompt",
            path: ["prompts", index, "prompt", partIndex, "prompt"],
            code: "unknown_include",
          });
      });
    prompt.tools?.forEach((entry, entryIndex) => {
      const path =
        typeof entry === "string"
          ? ["prompts", index, "tools", entryIndex]
          : ["prompts", index, "tools", entryIndex, "name"];
      found.push({ kind: "prompt", path, code: "unknown_tool_reference" });
    });
  });
  bundle.models.forEach((model, index) => {
    model.fallbacks?.forEach((_, fallbackIndex) => {
      found.push({
        kind: "model",
        path: ["models", index, "fallbacks", fallbackIndex],
        code: "unknown_fallback_model",
      });
    });
  });
  return found;
}

/**
 * Errors that rightly follow from a dangling reference: side B's session tools (approve_asset,
 * update_asset_status) exist only while side B uses the prompt that lists them.
 */
const CONSEQUENCES: Record<string, string[]> = {
  "agents[1].sideB.prompt": ["prompts[2].tools[2]", "prompts[2].tools[3]"],
};

function withDangling(bundle: Bundle, path: readonly PathSegment[]): Bundle {
  const copy = structuredClone(bundle);
  let target = copy as unknown as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) target = target[segment] as Record<string | number, unknown>;
  target[path.at(-1)!] = "no_such_definition";
  return copy;
}

describe("a dangling reference, one at a time", () => {
  const bundle = richBundle();
  const all = references(bundle);

  it("starts from a bundle without errors that has references of every kind that can have one", () => {
    const parsed = parseBundle(bundle);
    expect(parsed.diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    expect(new Set(all.map((reference) => reference.code))).toEqual(
      new Set([
        "unknown_prompt",
        "stop_tool_not_callable",
        "unknown_model",
        "unknown_include",
        "unknown_tool_reference",
        "unknown_fallback_model",
      ]),
    );
    // Tools name no other definition (their placeholders name their own arguments).
    expect(new Set(all.map((reference) => reference.kind))).toEqual(new Set(["agent", "prompt", "model"]));
    expect(all.length).toBeGreaterThan(15);
  });

  for (const reference of references(richBundle())) {
    const where = formatPath(reference.path);
    it(`${where} → ${reference.code}, and nothing else`, () => {
      const result = parseBundle(withDangling(bundle, reference.path));
      expect(result.ok).toBe(false);
      const errors = summarize(result.diagnostics).filter((diagnostic) => diagnostic.severity === "error");
      expect(errors.filter((error) => error.path === where)).toEqual([
        { severity: "error", code: reference.code, path: where },
      ]);
      expect(errors.filter((error) => error.path !== where).map((error) => error.path)).toEqual(
        CONSEQUENCES[where] ?? [],
      );
      const message = result.diagnostics.find((diagnostic) => diagnostic.path === where)?.message ?? "";
      expect(message).toContain('"no_such_definition"');
    });
  }
});
