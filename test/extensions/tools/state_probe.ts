// Test code tool: reports what it sees of ThreadState, and counts calls in the per-execution context.
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Reports the thread state it sees.",
  execute: async (state) => {
    state.context.calls = Number(state.context.calls ?? 0) + 1;
    const page = await state.getMessages({ limit: 2, order: "desc" });
    const first = page.messages.at(-1);
    return {
      status: "success",
      result: {
        threadId: state.threadId,
        agentId: state.agentId,
        createdAt: state.createdAt,
        terminated: state.terminated,
        children: state.children.length,
        calls: state.context.calls,
        stepCount: state.execution?.stepCount,
        currentSide: state.execution?.currentSide,
        promptPath: state.execution?.promptPath,
        historyLength: state.execution?.messageHistory.length,
        aborted: state.execution?.abortSignal.aborted,
        total: page.total,
        fetched: page.messages.length,
        readBack: first ? (await state.getMessage(first.id))?.id === first.id : null,
        parent: (await state.getParentThread()) === null,
        envType: await state.envType("SHOP_NAME"),
      },
    };
  },
});
