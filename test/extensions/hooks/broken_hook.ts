import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "before_create_message",
  id: "broken_hook",
  execute: () => {
    throw new Error("hook exploded");
  },
});
