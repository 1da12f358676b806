import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "filter_messages",
  id: "hide_private",
  execute: (_state, messages) => messages.filter((message) => !(message.content ?? "").includes("[private]")),
});
