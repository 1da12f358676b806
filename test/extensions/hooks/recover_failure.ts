import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "after_tool_call_failure",
  id: "recover_failure",
  execute: (_state, _call, result) => ({ status: "success", result: `recovered from: ${result.error}` }),
});
