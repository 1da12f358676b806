import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "prefilter_llm_history",
  id: "add_footer",
  execute: (_state, messages) => [...messages, { role: "user", content: "FOOTER" }],
});
