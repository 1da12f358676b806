// Test thread endpoint: POST …/endpoints/archive (method suffix) — injects a message from the body.
import { defineThreadEndpoint } from "../../../runtime/extensions/define";

export default defineThreadEndpoint(async (req, state) => {
  const body = (await req.json()) as { note?: string };
  const message = await state.injectMessage({
    role: "assistant",
    content: `archived: ${body.note ?? "(no note)"}`,
    metadata: { archived: true },
  });
  return Response.json({ messageId: message.id, executionIsNull: state.execution === null }, { status: 201 });
});
