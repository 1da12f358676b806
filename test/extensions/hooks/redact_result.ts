import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "before_store_tool_result",
  id: "redact_result",
  execute: (_state, _call, result) =>
    typeof result.result === "string"
      ? { ...result, result: result.result.replaceAll("SECRET-123", "[redacted]") }
      : result,
});
