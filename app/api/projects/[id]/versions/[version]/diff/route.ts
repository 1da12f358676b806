// GET /api/projects/:id/versions/:version/diff?against=N — definitions added, removed and changed by
// name per kind; `against` defaults to the previous version.
import { InvalidInputError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../../../_lib/http";
import { parseVersion } from "../../version-param";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; version: string }> };

export const GET = handle(async (request: Request, context: Context) => {
  const { id, version } = await context.params;
  const number = parseVersion(version);
  const rawAgainst = new URL(request.url).searchParams.get("against");
  const against = rawAgainst === null ? number - 1 : parseVersion(rawAgainst, "against");
  if (against < 1)
    throw new InvalidInputError(
      "Version 1 has no previous version; name one with ?against=N.",
      {},
      "no_previous_version",
    );
  const runtime = await getRuntime();
  return Response.json(await runtime.projects.diffVersions(id, number, against));
});
