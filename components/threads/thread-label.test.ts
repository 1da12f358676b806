import { describe, expect, it } from "vitest";
import { LiveThreadSchema, RegistryEntrySchema } from "@/lib/live";
import { registryEntryWire, threadWire, uuid } from "@/test/support/live-support";
import { threadLabel } from "./thread-label";

const thread = (overrides: Parameters<typeof threadWire>[0]) => LiveThreadSchema.parse(threadWire(overrides));

describe("threadLabel", () => {
  it("tells siblings of one agent apart by their instance names", () => {
    const first = threadLabel(thread({ id: uuid("a"), agent_id: "asset_writer", name: "logo" }), undefined);
    const second = threadLabel(
      thread({ id: uuid("b"), agent_id: "asset_writer", name: "banner" }),
      undefined,
    );
    expect(first.primary).not.toBe(second.primary);
    expect(first).toEqual({ primary: "logo", agent: "asset_writer", full: "logo (asset_writer)" });
  });

  it("adds the registry's title, and names an unnamed child by its agent", () => {
    const child = thread({ id: uuid("c"), agent_id: "reviewer" });
    const entry = RegistryEntrySchema.parse(
      registryEntryWire({ reference: child.id, name: "reviewer", title: "Code reviewer" }),
    );
    expect(threadLabel(child, entry)).toEqual({
      primary: "reviewer",
      agent: null,
      full: "reviewer — Code reviewer",
    });
    expect(threadLabel(child, undefined)).toEqual({ primary: "reviewer", agent: null, full: "reviewer" });
  });
});
