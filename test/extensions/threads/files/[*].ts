// Test thread endpoint: GET …/endpoints/files/<anything> (a catch-all: zero or more segments).
import { defineThreadEndpoint } from "../../../../runtime/extensions/define";

export default defineThreadEndpoint((_req, _state, params) => Response.json({ route: "files", params }));
