// Test effect: works for `ms` milliseconds, counting its starts in the thread's filesystem, then
// injects a note (for leases, drains and crashes).
import { z } from "zod";
import { defineEffect } from "../../../runtime/extensions/define";

export default defineEffect({
  description: "Works for a while.",
  args: z.object({ ms: z.number().int().min(0).max(600_000), key: z.string().default("slow") }),
  execute: async (state, args) => {
    const path = `/effects/${args.key}.starts`;
    const previous = await state.readFile(path);
    const starts = Number(previous ? Buffer.from(previous).toString("utf8") : "0") + 1;
    await state.writeFile(path, String(starts));
    await new Promise((resolve) => setTimeout(resolve, args.ms));
    await state.injectMessage({
      role: "system",
      content: `slow effect done (start ${starts})`,
      silent: true,
    });
  },
});
