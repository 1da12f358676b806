// Test effect (the spec's two-argument form): queues a user message, which makes an idle thread run.
import { defineEffect } from "../../../runtime/extensions/define";

export default defineEffect("Queues a follow-up message.", async (state, args) => {
  await state.queueMessage({ role: "user", content: String(args.text ?? "follow up") });
});
