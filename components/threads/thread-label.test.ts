import { describe, expect, it } from "vitest";
import { LiveThreadSchema, RegistryEntrySchema } from "@/lib/live";
import { registryEntryWire, threadWire, uuid } from "@/lib/live/test-support";
import { threadLabel } from "./thread-label";

const thread = (overrides: Parameters<typeof threadWire>[0]) => LiveThreadSchema.parse(threadWire(overrides));

describe("threadLabel", () => {
  it("tells siblings of one agent apart by their instance names", () => {
    const first = threadLabel(
      thread({ id: uuid("a"), agent_id: "asset_writer", name: "asset-writer: logo" }),
      undefined,
    );
    const second = threadLabel(
      thread({ id: uuid("b"), agent_id: "asset_writer", name: "asset-writer: banner" }),
      undefined,
    );
    expect(first.primary).not.toBe(second.primary);
    expect(first).toEqual({
      primary: "asset-writer: logo",
      agent: "asset_writer",
      full: "asset-writer: logo (asset_writer)",
    });
  });

  it("falls back to the registry's title, then the agent", () => {
    const child = thread({ id: uuid("c"), agent_id: "reviewer" });
    const entry = RegistryEntrySchema.parse(
      registryEntryWire({ reference: child.id, name: "reviewer", title: "Code reviewer" }),
    );
    expect(threadLabel(child, entry)).toEqual({
      primary: "Code reviewer",
      agent: "reviewer",
      full: "Code reviewer (reviewer)",
    });
    expect(threadLabel(child, undefined)).toEqual({ primary: "reviewer", agent: null, full: "reviewer" });
  });
});
