// POST /api/projects/:id/import — replace the definitions from TypeScript (text/plain or
// application/typescript), a zipped project (application/zip) or a JSON bundle (application/json),
// like PUT …/definitions. The code is parsed, never run; 422 with diagnostics (line and column) when
// it cannot be read or the definitions are invalid.
import { z } from "zod";
import {
  InvalidZipError,
  projectFilesToBundle,
  type ReadBundleResult,
  SOURCE_DIAGNOSTIC_CODES,
  typeScriptToBundle,
  unzipProjectFiles,
} from "@/lib/codegen";
import { plural } from "@/lib/text/plural";
import { InvalidInputError, UnprocessableError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";
import {
  handle,
  integerParam,
  readBodyBytes,
  readBodyText,
  readJson,
  UPLOAD_BODY_LIMIT,
} from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const TYPESCRIPT_TYPES = [
  "text/plain",
  "application/typescript",
  "text/typescript",
  "application/x-typescript",
];
const ZIP_TYPES = ["application/zip", "application/x-zip-compressed"];

function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

function requireBody(size: number): void {
  if (size === 0)
    throw new InvalidInputError(
      "The request needs a body: the TypeScript source or the zip.",
      {},
      "empty_body",
    );
}

async function readZip(request: Request): Promise<ReadBundleResult> {
  const bytes = await readBodyBytes(request, UPLOAD_BODY_LIMIT);
  requireBody(bytes.length);
  try {
    return projectFilesToBundle(await unzipProjectFiles(bytes));
  } catch (error) {
    if (error instanceof InvalidZipError) throw new InvalidInputError(error.message, {}, "invalid_zip");
    throw error;
  }
}

/** Source that could not be read is `invalid_source`; source that reads into invalid definitions is `invalid_definitions`. */
function refuse(result: ReadBundleResult): never {
  const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  const unreadable = errors.some((diagnostic) =>
    (SOURCE_DIAGNOSTIC_CODES as readonly string[]).includes(diagnostic.code),
  );
  const first = errors[0];
  const where = first ? `${first.file ? `${first.file}:` : "line "}${first.line}:${first.column}` : "";
  throw new UnprocessableError(
    first
      ? `The import has ${plural(errors.length, "error")}; first at ${where}: ${first.message}`
      : "The import is invalid.",
    { diagnostics: result.diagnostics },
    unreadable ? "invalid_source" : "invalid_definitions",
  );
}

export const POST = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const baseVersion = integerParam(new URL(request.url), "base_version", { min: 1 });
  const runtime = await getRuntime();
  // An unknown project is a 404 whatever the body holds.
  await runtime.projects.get(id);
  const type = mediaType(request);
  if (type === "application/json") {
    const bundle = await readJson(request, z.unknown());
    return Response.json(await runtime.projects.saveDefinitions(id, bundle, baseVersion));
  }
  let result: ReadBundleResult;
  if (TYPESCRIPT_TYPES.includes(type)) {
    const source = await readBodyText(request, UPLOAD_BODY_LIMIT);
    requireBody(source.trim().length);
    result = typeScriptToBundle(source);
  } else if (ZIP_TYPES.includes(type)) {
    result = await readZip(request);
  } else {
    throw new InvalidInputError(
      `Cannot import content of type "${type || "(none)"}". Send TypeScript as text/plain or application/typescript, a project as application/zip, or a bundle as application/json.`,
      { content_type: type },
      "unsupported_content_type",
    );
  }
  if (!result.ok || result.bundle === undefined) refuse(result);
  return Response.json(await runtime.projects.saveDefinitions(id, result.bundle, baseVersion));
});
