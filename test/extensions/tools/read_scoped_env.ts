// Test code tool: proves a child received a scoped (runtime-only) env value, without revealing it.
import { z } from "zod";
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Check that an env variable is available to this thread.",
  args: z.object({ name: z.string() }),
  execute: async (state, args) => {
    const value = await state.env(args.name).catch(() => null);
    return { status: "success", result: value === null ? "missing" : `present (${value.length} characters)` };
  },
});
