import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "before_update_message",
  id: "mark_update",
  execute: (_state, _id, updates) =>
    typeof updates.content === "string"
      ? { ...updates, content: `${updates.content} [update hooked]` }
      : updates,
});
