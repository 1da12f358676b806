// Loads thread endpoints for the extension registry: every module under `threads/` becomes a route
// (method and path from its file name, lib/standard/thread-endpoint-routes.ts) whose handler is the
// module's `defineThreadEndpoint(...)` default export. A file that does not parse, load or export
// an endpoint, or that answers the same method and path as an earlier file, is a registry problem.
import path from "node:path";
import { type EndpointRoute, parseEndpointFile, routeShape } from "@/lib/standard/thread-endpoint-routes";
import type { ThreadEndpointDefinition, ThreadEndpointHandler } from "./define";

export interface ThreadEndpointRoute extends EndpointRoute {
  /** The module's absolute path (named in logs). */
  file: string;
  execute: ThreadEndpointHandler;
}

function checkEndpoint(value: unknown): string | null {
  const endpoint = value as Partial<ThreadEndpointDefinition> | null | undefined;
  if (!endpoint || typeof endpoint !== "object" || endpoint.kind !== "thread_endpoint")
    return "the default export must be defineThreadEndpoint(handler)";
  if (typeof endpoint.execute !== "function") return "a thread endpoint needs a handler function";
  return null;
}

/**
 * The routes of `files` (modules found under `root`, in a stable order); `load` imports a module and
 * answers its default export. Problems are appended to `problems`.
 */
export async function loadThreadEndpoints(
  root: string,
  files: readonly string[],
  load: (file: string) => Promise<unknown>,
  problems: { file: string; message: string }[],
): Promise<ThreadEndpointRoute[]> {
  const routes: ThreadEndpointRoute[] = [];
  const taken = new Map<string, string>();
  for (const file of files) {
    const relative = path.relative(root, file).split(path.sep).join("/");
    const parsed = parseEndpointFile(relative);
    if ("problem" in parsed) {
      problems.push({ file, message: parsed.problem });
      continue;
    }
    const shape = routeShape(parsed);
    const earlier = taken.get(shape);
    if (earlier) {
      problems.push({
        file,
        message: `${parsed.method} ${parsed.pattern} is already defined by ${path.relative(root, earlier)}`,
      });
      continue;
    }
    try {
      const value = await load(file);
      const problem = checkEndpoint(value);
      if (problem) {
        problems.push({ file, message: problem });
        continue;
      }
      taken.set(shape, file);
      routes.push({ ...parsed, file, execute: (value as ThreadEndpointDefinition).execute });
    } catch (error) {
      problems.push({ file, message: `failed to load: ${(error as Error).message}` });
    }
  }
  return routes;
}
