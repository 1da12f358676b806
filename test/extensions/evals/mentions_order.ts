// Test eval check: passes when the conversation looked the order up with a tool and the final reply
// names the order; says why when it does not (docs/evals.md "Code checks").
import { defineEvalCheck } from "../../../runtime/extensions/define";

export default defineEvalCheck(({ final_reply, tool_calls }) => {
  const lookup = tool_calls.find((call) => call.name === "lookup_order");
  if (!lookup) return { passed: false, reason: "no lookup_order call in the conversation" };
  const orderId = String((lookup.args as { orderId?: unknown }).orderId ?? "");
  return final_reply.includes(orderId)
    ? { passed: true, score: 1, reason: `the final reply names order ${orderId}` }
    : { passed: false, score: 0, reason: `the final reply does not name order ${orderId}` };
});
