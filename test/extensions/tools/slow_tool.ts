// Test code tool: works for `ms` milliseconds unless the run is aborted first (a user stop).
import { z } from "zod";
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Works for a while.",
  args: z.object({ ms: z.number().int().min(0).max(60_000) }),
  execute: async (state, args) => {
    const signal = state.execution?.abortSignal;
    const finished = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), args.ms);
      signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    return finished
      ? { status: "success", result: `worked ${args.ms} ms` }
      : { status: "error", error: "aborted" };
  },
});
