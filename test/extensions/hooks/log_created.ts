// Writes one file per created message through ThreadState (proves after_create_message runs with a state).
import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "after_create_message",
  id: "log_created",
  execute: async (state, message) => {
    await state.writeFile(`/hooklog/${message.seq}-${message.role}.txt`, message.content ?? "");
  },
});
