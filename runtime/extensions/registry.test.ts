import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadExtensions } from "./registry";

const directory = path.resolve(__dirname, "../../test/extensions");

describe("loadExtensions", () => {
  it("loads code tools by path id and hooks by declared id from TypeScript files", async () => {
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

  it("answers an empty registry for a missing folder", async () => {
    const registry = await loadExtensions(path.join(directory, "does-not-exist"));
    expect(registry.tools.size).toBe(0);
    expect(registry.hooks.size).toBe(0);
    expect(registry.problems).toEqual([]);
  });
});
