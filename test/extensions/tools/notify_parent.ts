// Test code tool: explicit child → parent communication (spec §7.10): a status and a notification.
import { z } from "zod";
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Tell the parent thread something, and set this subagent's registry status.",
  args: z.object({ note: z.string(), status: z.string() }),
  execute: async (state, args) => {
    await state.setStatus(args.status);
    await state.notifyParent(args.note);
    return { status: "success", result: "parent notified" };
  },
});
