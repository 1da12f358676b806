// The spec's own path for scoped variable bootstrap (§7.8): /threads/:parentId/variables/:requestId,
// the same handlers as /api/threads/:parentId/variables/:requestId.
export { GET, POST } from "../../../../api/threads/[id]/variables/[requestId]/route";

export const dynamic = "force-dynamic";
