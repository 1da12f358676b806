// Test thread endpoint: GET …/endpoints/orders/:orderId (a dynamic segment).
import { defineThreadEndpoint } from "../../../../runtime/extensions/define";

export default defineThreadEndpoint((_req, _state, params) => Response.json({ route: "order", params }));
