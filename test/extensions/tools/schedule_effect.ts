// Test code tool: schedules an effect through ThreadState and answers its id (an unknown name is a
// tool error: "Effect not found: <name>").
import { z } from "zod";
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Schedules an effect.",
  args: z.object({
    name: z.string(),
    args: z.record(z.string(), z.unknown()).optional(),
    delayMs: z.number().int().min(0).optional(),
  }),
  execute: async (state, args) => {
    const id = await state.scheduleEffect(args.name, args.args ?? {}, args.delayMs ?? 0);
    const pending = await state.getScheduledEffects(args.name);
    return { status: "success", result: { id, pending: pending.map((effect) => effect.id) } };
  },
});
