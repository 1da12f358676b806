import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "after_thread_created",
  id: "greet_thread",
  execute: async (state) => {
    await state.injectMessage({ role: "assistant", content: `Welcome to ${state.agentId}!` });
  },
});
