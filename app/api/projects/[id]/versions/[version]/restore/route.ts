// POST /api/projects/:id/versions/:version/restore — saves that version's graph as a NEW version;
// 409 when base_version is stale (like PUT …/graph). History is never rewritten.
import type { z } from "zod";
import { RestoreVersionBodySchema } from "@/lib/contracts/version";
import { getRuntime } from "@/runtime/runtime";
import { handle, parseJsonBody, readBodyText } from "../../../../../_lib/http";
import { parseVersion } from "../../version-param";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; version: string }> };

/** The body is optional: empty means no base version check. */
async function readRestoreBody(request: Request): Promise<z.output<typeof RestoreVersionBodySchema>> {
  const body = parseJsonBody(await readBodyText(request));
  return body === undefined ? {} : RestoreVersionBodySchema.parse(body);
}

export const POST = handle(async (request: Request, context: Context) => {
  const { id, version } = await context.params;
  const number = parseVersion(version);
  const body = await readRestoreBody(request);
  const runtime = await getRuntime();
  return Response.json(await runtime.projects.restoreVersion(id, number, body.base_version));
});
