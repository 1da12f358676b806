import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "after_system_message",
  id: "system_marker",
  execute: (_state, system) => `${system}\n\nHOOKED-SYSTEM`,
});
