// GET /api/projects/:id/export?format=json|ts|zip — the current definitions as the JSON bundle, one
// TypeScript module, or a zipped Standard Agents project (with the project's eval suites as
// evals/<suite>.ts). Keys never appear: models name env variables.
import {
  bundleToProjectFiles,
  bundleToTypeScript,
  evalSuitesToProjectFiles,
  packageNameFor,
  withoutPlaceholders,
  zipProjectFiles,
} from "@/lib/codegen";
import { InvalidInputError, UnprocessableError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";
import { handle } from "../../../_lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const EXPORT_FORMATS = ["json", "ts", "zip"] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

function exportFormat(url: URL): ExportFormat {
  const format = url.searchParams.get("format") ?? "json";
  if ((EXPORT_FORMATS as readonly string[]).includes(format)) return format as ExportFormat;
  throw new InvalidInputError(
    `Unknown export format "${format}". Use format=json (the bundle), format=ts (one TypeScript module) or format=zip (a project).`,
    { format, formats: EXPORT_FORMATS },
    "unknown_export_format",
  );
}

const attachment = (fileName: string) => `attachment; filename="${fileName}"`;

export const GET = handle(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const format = exportFormat(new URL(request.url));
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id);
  const baseName = packageNameFor(project.name);
  // A hint text saved as a description (older studio versions stored one) is not exported.
  const definitions = withoutPlaceholders(project.definitions);
  if (format === "json") return Response.json(definitions);
  if (format === "ts") {
    return new Response(bundleToTypeScript(definitions), {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "content-disposition": attachment(`${baseName}.ts`),
      },
    });
  }
  let files: ReturnType<typeof bundleToProjectFiles>;
  try {
    files = bundleToProjectFiles(definitions, { name: project.name });
  } catch (error) {
    // Only a definition whose name cannot be a file name gets here (a canvas saved with problems).
    throw new UnprocessableError(
      `${(error as Error).message} Fix the project's problems, then export again.`,
      {},
      "unexportable_definitions",
    );
  }
  const suites = await runtime.evals.exportSuites(id);
  const zip = zipProjectFiles({ ...files, ...evalSuitesToProjectFiles(suites) });
  return new Response(zip as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": attachment(`${baseName}.zip`),
      "content-length": String(zip.length),
    },
  });
});
