// POST /api/projects/:id/import — replace the definitions from TypeScript (text/plain or
// application/typescript), a zipped project (application/zip) or a JSON bundle (application/json),
// like PUT …/definitions; a zip's evals/<suite>.ts create or replace the project's suites of those
// names. The code is parsed, never run; 422 with diagnostics (file, line and column) when it cannot
// be read, the definitions are invalid or a suite is, and then nothing is saved.
import { z } from "zod";
import {
  InvalidZipError,
  projectFilesToBundle,
  projectFilesToEvalSuites,
  type ReadBundleResult,
  SOURCE_DIAGNOSTIC_CODES,
  typeScriptToBundle,
  unzipProjectFiles,
  withoutCommonRoot,
} from "@/lib/codegen";
import type { SuiteBody } from "@/lib/contracts/evals";
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

/** The definitions and the eval suites of a zipped project, their diagnostics together. */
async function readZip(request: Request): Promise<ReadBundleResult & { suites: SuiteBody[] }> {
  const bytes = await readBodyBytes(request, UPLOAD_BODY_LIMIT);
  requireBody(bytes.length);
  let files: Awaited<ReturnType<typeof unzipProjectFiles>>;
  try {
    files = withoutCommonRoot(await unzipProjectFiles(bytes));
  } catch (error) {
    if (error instanceof InvalidZipError) throw new InvalidInputError(error.message, {}, "invalid_zip");
    throw error;
  }
  const definitions = projectFilesToBundle(files);
  const evals = projectFilesToEvalSuites(files, definitions.bundle);
  return {
    ...definitions,
    ok: definitions.ok && evals.ok,
    diagnostics: [...definitions.diagnostics, ...evals.diagnostics],
    suites: evals.suites.map((entry) => entry.suite),
  };
}

/** Source that could not be read is `invalid_source`; source that reads into invalid definitions is `invalid_definitions`. */
function refuse(result: ReadBundleResult): never {
  const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  const unreadable = errors.some((diagnostic) =>
    (SOURCE_DIAGNOSTIC_CODES as readonly string[]).includes(diagnostic.code),
  );
  const first = errors[0];
  const suites = errors.length > 0 && errors.every((diagnostic) => diagnostic.file?.startsWith("evals/"));
  const where = first ? `${first.file ? `${first.file}:` : "line "}${first.line}:${first.column}` : "";
  throw new UnprocessableError(
    first
      ? `The import has ${plural(errors.length, "error")}; first at ${where}: ${first.message}`
      : "The import is invalid.",
    { diagnostics: result.diagnostics },
    unreadable ? "invalid_source" : suites ? "invalid_suite" : "invalid_definitions",
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
  let suites: SuiteBody[] = [];
  if (TYPESCRIPT_TYPES.includes(type)) {
    const source = await readBodyText(request, UPLOAD_BODY_LIMIT);
    requireBody(source.trim().length);
    result = typeScriptToBundle(source);
  } else if (ZIP_TYPES.includes(type)) {
    ({ suites, ...result } = await readZip(request));
  } else {
    throw new InvalidInputError(
      `Cannot import content of type "${type || "(none)"}". Send TypeScript as text/plain or application/typescript, a project as application/zip, or a bundle as application/json.`,
      { content_type: type },
      "unsupported_content_type",
    );
  }
  if (!result.ok || result.bundle === undefined) refuse(result);
  // Everything was read and checked above: the definitions, then the suites (all or none).
  const saved = await runtime.projects.saveDefinitions(id, result.bundle, baseVersion);
  if (suites.length > 0) await runtime.evals.importSuites(id, suites);
  return Response.json(saved);
});
