// Test thread endpoint: GET …/endpoints/status (no method suffix) — what the handler sees of the thread.
import { defineThreadEndpoint } from "../../../runtime/extensions/define";

export default defineThreadEndpoint(async (req, state, params) => {
  const { messages, total } = await state.getMessages({ limit: 10 });
  return Response.json({
    threadId: state.threadId,
    agentId: state.agentId,
    method: req.method,
    query: new URL(req.url).searchParams.get("q"),
    messageCount: total,
    contents: messages.map((message) => message.content),
    executionIsNull: state.execution === null,
    params,
  });
});
