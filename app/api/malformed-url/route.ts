// Where next.config.mjs rewrites API requests whose path has a malformed percent-encoding
// (lib/routing/malformed-path.mjs): 400 with the usual error body, instead of the 500 the route
// matcher would answer. Behind the API token like every route.
import { handle, jsonError } from "../_lib/http";

export const dynamic = "force-dynamic";

const answer = handle(async () =>
  jsonError(
    400,
    "malformed_url",
    "The request path has a malformed percent-encoding: every % must start an escape of two hex digits, and the escapes must spell valid UTF-8 (send a literal % as %25).",
  ),
);

export const GET = answer;
export const POST = answer;
export const PUT = answer;
export const PATCH = answer;
export const DELETE = answer;
