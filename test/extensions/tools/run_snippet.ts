// Test code tool: runs the model's snippet with state.runCode, bridging a "shop" module (a sync
// function, and an async one that reads the thread's env through ThreadState) and a global.
import { z } from "zod";
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Runs a JavaScript or TypeScript snippet in the sandbox.",
  args: z.object({ source: z.string(), timeoutMs: z.number().int().positive().optional() }),
  execute: async (state, args) => {
    const outcome = await state.runCode(args.source, {
      imports: {
        shop: {
          add: (a: number, b: number) => a + b,
          name: () => state.env("SHOP_NAME"),
        },
      },
      globals: { taxRate: 0.5 },
      timeoutMs: args.timeoutMs,
    });
    return outcome.status === "success"
      ? { status: "success", result: { value: outcome.result, logs: outcome.logs } }
      : { status: "error", error: `${outcome.status}: ${outcome.error}` };
  },
});
