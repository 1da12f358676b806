import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadExtensions } from "./registry";

const directory = path.resolve(__dirname, "../../test/extensions");

describe("loadExtensions", () => {
  // Loading goes through tsx's TypeScript loader (3–4 s on a loaded 2-core machine): room beyond 5 s.
  it("loads code tools by path id and hooks by declared id from TypeScript files", {
    timeout: 20_000,
  }, async () => {
    const registry = await loadExtensions(directory);
    expect([...registry.tools.keys()]).toEqual(
      expect.arrayContaining(["lookup_order", "fail_tool", "state_probe", "secret_report"]),
    );
    const lookup = registry.tools.get("lookup_order");
    expect(lookup?.inputSchema).toMatchObject({
      type: "object",
      properties: { orderId: { type: "string", minLength: 3 }, verbose: { type: "boolean" } },
      required: ["orderId"],
    });
    expect(registry.hooks.get("system_marker")?.hook).toBe("after_system_message");
    expect(registry.hooks.get("drop_noise")?.hook).toBe("after_tool_call_success");
  });

  it("reports files that do not export a valid tool instead of failing the whole registry", async () => {
    const registry = await loadExtensions(directory);
    expect(registry.tools.has("broken")).toBe(false);
    expect(registry.problems).toEqual([
      expect.objectContaining({
        file: path.join(directory, "tools", "broken.mjs"),
        message: "a code tool needs a non-empty description",
      }),
    ]);
  });

  it("loads effects by their path under effects/, in every defineEffect form", async () => {
    const registry = await loadExtensions(directory);
    expect([...registry.effects.keys()]).toEqual(["flaky", "queue_followup", "record_ping", "slow_effect"]);
    expect(registry.effects.get("record_ping")).toMatchObject({
      kind: "effect",
      description: "Records a ping in the thread.",
    });
    expect(registry.effects.get("record_ping")?.args?.safeParse({ note: "x" }).success).toBe(true);
    expect(registry.effects.get("queue_followup")?.args).toBeNull();
    expect(typeof registry.effects.get("flaky")?.execute).toBe("function");
  });

  it("reports effect files that are not defineEffect(...) and keeps the others", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "tandem-effects-"));
    try {
      await mkdir(path.join(root, "effects", "billing"), { recursive: true });
      const define = path.resolve(__dirname, "define.ts");
      await writeFile(
        path.join(root, "effects", "billing", "digest.mts"),
        `import { defineEffect } from ${JSON.stringify(define)};\nexport default defineEffect("Sends a digest.", async () => {});\n`,
      );
      await writeFile(path.join(root, "effects", "plain.mjs"), "export default { execute() {} };\n");
      await writeFile(path.join(root, "effects", "bad name.mjs"), "export default 1;\n");
      const registry = await loadExtensions(root);
      expect([...registry.effects.keys()]).toEqual(["billing/digest"]);
      expect(registry.problems.map((problem) => [path.basename(problem.file), problem.message])).toEqual([
        ["bad name.mjs", '"bad name" is not a valid effect name (letters, digits, _ and -)'],
        ["plain.mjs", "the default export must be defineEffect(...)"],
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("answers an empty registry for a missing folder", async () => {
    const registry = await loadExtensions(path.join(directory, "does-not-exist"));
    expect(registry.tools.size).toBe(0);
    expect(registry.hooks.size).toBe(0);
    expect(registry.problems).toEqual([]);
  });
});
