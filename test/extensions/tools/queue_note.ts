import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Queues a silent note for the next step and injects a visible system notice now.",
  execute: async (state) => {
    await state.queueMessage({ role: "user", content: "queued note", silent: true });
    const injected = await state.injectMessage({ role: "system", content: "injected notice", silent: false });
    const updated = await state.updateMessage(injected.id, { content: "injected notice (edited)" });
    return { status: "success", result: `queued; injected ${updated.content}` };
  },
});
