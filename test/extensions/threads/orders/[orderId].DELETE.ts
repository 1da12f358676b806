// Test thread endpoint: DELETE …/endpoints/orders/:orderId (the suffix is case-insensitive).
import { defineThreadEndpoint } from "../../../../runtime/extensions/define";

export default defineThreadEndpoint(
  (_req, _state, params) =>
    new Response(null, { status: 204, headers: { "x-deleted": params.orderId ?? "" } }),
);
