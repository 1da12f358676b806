// Test thread endpoint: answers a plain object instead of a Response (a 500 with a logged reason).
import { defineThreadEndpoint, type ThreadEndpointHandler } from "../../../../runtime/extensions/define";

const handler = (async () => ({ ok: true })) as unknown as ThreadEndpointHandler;

export default defineThreadEndpoint(handler);
