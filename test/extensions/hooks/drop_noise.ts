import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "after_tool_call_success",
  id: "drop_noise",
  execute: (_state, call, result) => (call.function.name === "noise" ? null : result),
});
