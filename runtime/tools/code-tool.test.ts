import { describe, expect, it } from "vitest";
import { DEFAULT_TOOL_TIMEOUT_MS, toolTimeoutMsFromEnv, withToolTimeLimit } from "./code-tool";

describe("withToolTimeLimit", () => {
  it("answers an error result naming the setting once the limit passes", async () => {
    const never = new Promise<never>(() => {});
    await expect(withToolTimeLimit(never, "billing/invoice", 20)).resolves.toEqual({
      status: "error",
      text: 'Tool "billing/invoice" timed out after 20 ms (TANDEM_TOOL_TIMEOUT_MS).',
      attachments: [],
    });
  });

  it("passes a result that arrives in time through, and 0 turns the limit off", async () => {
    const done = { status: "success" as const, text: "ok", attachments: [] };
    await expect(withToolTimeLimit(Promise.resolve(done), "t", 1_000)).resolves.toBe(done);
    await expect(withToolTimeLimit(Promise.resolve(done), "t", 0)).resolves.toBe(done);
  });

  it("reads TANDEM_TOOL_TIMEOUT_MS with a documented default", () => {
    expect(toolTimeoutMsFromEnv({})).toBe(DEFAULT_TOOL_TIMEOUT_MS);
    expect(toolTimeoutMsFromEnv({ TANDEM_TOOL_TIMEOUT_MS: "1500" })).toBe(1_500);
    expect(toolTimeoutMsFromEnv({ TANDEM_TOOL_TIMEOUT_MS: "0" })).toBe(0);
  });
});
