// Test thread endpoint: always throws; the client must get a bare 500 and the server log the reason.
import { defineThreadEndpoint } from "../../../../runtime/extensions/define";

export default defineThreadEndpoint(() => {
  throw new Error("ledger unreachable at /srv/internal/ledger.sock");
});
