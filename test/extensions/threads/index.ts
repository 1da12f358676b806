// Test thread endpoint: GET /api/threads/:id/endpoints (index.ts is the folder's own path).
import { defineThreadEndpoint } from "../../../runtime/extensions/define";

export default defineThreadEndpoint((_req, state) => Response.json({ root: true, threadId: state.threadId }));
