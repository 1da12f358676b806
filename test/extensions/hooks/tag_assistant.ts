import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "before_create_message",
  id: "tag_assistant",
  execute: (_state, message) =>
    message.role === "assistant" && message.content
      ? { ...message, content: `[tagged] ${message.content}` }
      : message,
});
