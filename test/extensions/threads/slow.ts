// Test thread endpoint: GET …/endpoints/slow?ms=N answers after sleeping N ms (the time-limit test).
import { defineThreadEndpoint } from "../../../runtime/extensions/define";

export default defineThreadEndpoint(async (req, state) => {
  const ms = Number(new URL(req.url).searchParams.get("ms") ?? "0");
  await new Promise((resolve) => setTimeout(resolve, ms));
  return Response.json({ threadId: state.threadId, slept: ms });
});
