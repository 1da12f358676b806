// Test thread endpoint: GET …/endpoints/orders/recent (static: wins over orders/[orderId]).
import { defineThreadEndpoint } from "../../../../runtime/extensions/define";

export default defineThreadEndpoint((_req, _state, params) => Response.json({ route: "recent", params }));
