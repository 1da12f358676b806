// Test effect: throws on its first `failures` runs, then injects a note. It counts its runs in the
// thread's filesystem, so the count survives a restart and holds across processes.
import { z } from "zod";
import { defineEffect } from "../../../runtime/extensions/define";

export default defineEffect({
  description: "Fails a given number of times, then succeeds.",
  args: z.object({ failures: z.number().int().min(0), key: z.string().default("flaky") }),
  execute: async (state, args) => {
    const path = `/effects/${args.key}.count`;
    const previous = await state.readFile(path);
    const runs = Number(previous ? Buffer.from(previous).toString("utf8") : "0") + 1;
    await state.writeFile(path, String(runs));
    if (runs <= args.failures) throw new Error(`mail server down (run ${runs})`);
    await state.injectMessage({ role: "system", content: `flaky succeeded on run ${runs}`, silent: true });
  },
});
