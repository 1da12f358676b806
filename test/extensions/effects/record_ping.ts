// Test effect (the spec's three-argument form): injects a silent note saying what it was given and
// whether it ran outside a turn (`execution` is null for effects).
import { z } from "zod";
import { defineEffect } from "../../../runtime/extensions/define";

export default defineEffect(
  "Records a ping in the thread.",
  z.object({ note: z.string().min(1) }),
  async (state, args) => {
    await state.injectMessage({
      role: "system",
      content: `ping: ${args.note} (execution ${state.execution === null ? "null" : "set"})`,
      silent: true,
    });
  },
);
