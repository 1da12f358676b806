// The server's extension registry: code tools and hooks loaded from files in the extensions folder
// (TANDEM_EXTENSIONS_DIR, default ./extensions). A code tool's id is its path under `tools/` without
// the extension (`tools/billing/create_invoice.ts` → `billing/create_invoice`); a hook's id is the
// `id` it declares; an effect's name is its path under `effects/` without the extension. Loaded once per process. TypeScript files are loaded through tsx; nothing here
// ever runs code that arrived over HTTP.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { HOOK_ID_PATTERN } from "@/lib/standard/identifiers";
import { MODULE_ID_PATTERN } from "@/lib/standard/tool";
import {
  type CodeToolDefinition,
  type EffectDefinition,
  type EvalCheckDefinition,
  HOOK_NAMES,
  type HookDefinition,
} from "./define";
import { McpClients } from "./mcp-clients";
import { loadMcpConfig } from "./mcp-config";
import { loadThreadEndpoints, type ThreadEndpointRoute } from "./thread-endpoint-loader";

export interface ExtensionRegistry {
  readonly directory: string;
  readonly tools: ReadonlyMap<string, CodeToolDefinition>;
  readonly hooks: ReadonlyMap<string, HookDefinition>;
  /** Thread endpoints from `threads/` (served at /api/threads/:id/endpoints/<path>). */
  readonly threadEndpoints: readonly ThreadEndpointRoute[];
  /** Effects by name (`effects/send_digest.ts` → `send_digest`), for ThreadState.scheduleEffect. */
  readonly effects: ReadonlyMap<string, EffectDefinition>;
  /** The MCP servers of `mcp.json`, connected on first use. */
  readonly mcp: McpClients;
  /** Eval code checks by name (`evals/tone.ts` → `tone`), for suites' `code` assertions. */
  readonly evals: ReadonlyMap<string, EvalCheckDefinition>;
  /** Files that could not be loaded, with the reason (logged at load). */
  readonly problems: readonly { file: string; message: string }[];
}

const MODULE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];

function isModuleFile(name: string): boolean {
  if (name.endsWith(".d.ts") || /\.(test|spec)\.[mc]?[jt]s$/.test(name)) return false;
  return MODULE_EXTENSIONS.some((extension) => name.endsWith(extension));
}

async function listModules(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(directory: string): Promise<void> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries.sort((left, right) => left.name.localeCompare(right.name))) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && isModuleFile(entry.name)) found.push(full);
    }
  }
  await walk(root);
  return found;
}

type TypeScriptImporter = (url: string) => Promise<unknown>;

/** One tsx loader for the whole load (registering one per file costs ~0.3 s each). */
async function typeScriptImporter(): Promise<TypeScriptImporter> {
  const { register } = await import("tsx/esm/api");
  const api = register({ namespace: `tandem-extensions-${process.pid}-${Date.now()}` });
  return (url) => api.import(url, import.meta.url);
}

function importer(): (file: string) => Promise<unknown> {
  let typeScript: Promise<TypeScriptImporter> | undefined;
  return async (file) => {
    const url = pathToFileURL(file).href;
    if (file.endsWith(".ts") || file.endsWith(".mts")) {
      typeScript ??= typeScriptImporter();
      return (await typeScript)(url);
    }
    return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url);
  };
}

function defaultExport(loaded: unknown): unknown {
  let value = (loaded as { default?: unknown }).default;
  // tsx may wrap a CommonJS-compiled module: default.default.
  if (value && typeof value === "object" && "default" in value && !("execute" in value))
    value = (value as { default: unknown }).default;
  return value;
}

function checkTool(value: unknown): string | null {
  if (!value || typeof value !== "object") return "the default export must be defineTool({...})";
  const tool = value as Partial<CodeToolDefinition>;
  if (typeof tool.description !== "string" || tool.description.trim() === "")
    return "a code tool needs a non-empty description";
  if (typeof tool.execute !== "function") return "a code tool needs an execute function";
  if (tool.args !== null && tool.args !== undefined && typeof tool.args.safeParse !== "function")
    return "args must be a zod object schema";
  if (!tool.inputSchema || typeof tool.inputSchema !== "object")
    return "export the result of defineTool() so the argument schema is known";
  return null;
}

function checkHook(value: unknown): string | null {
  if (!value || typeof value !== "object") return "the default export must be defineHook({...})";
  const hook = value as Partial<HookDefinition>;
  if (!HOOK_NAMES.includes(hook.hook as (typeof HOOK_NAMES)[number]))
    return `"hook" must be one of ${HOOK_NAMES.join(", ")}`;
  if (typeof hook.id !== "string" || !HOOK_ID_PATTERN.test(hook.id))
    return '"id" must be snake_case (lowercase letters, digits and _, starting with a letter)';
  if (typeof hook.execute !== "function") return "a hook needs an execute function";
  return null;
}

function checkEffect(value: unknown): string | null {
  if (!value || typeof value !== "object" || (value as { kind?: unknown }).kind !== "effect")
    return "the default export must be defineEffect(...)";
  const effect = value as Partial<EffectDefinition>;
  if (typeof effect.description !== "string" || effect.description.trim() === "")
    return "an effect needs a non-empty description";
  if (typeof effect.execute !== "function") return "an effect needs a handler function";
  if (effect.args !== null && effect.args !== undefined && typeof effect.args.safeParse !== "function")
    return "args must be a zod object schema";
  return null;
}

function checkEvalCheck(value: unknown): string | null {
  if (!value || typeof value !== "object" || (value as { kind?: unknown }).kind !== "eval_check")
    return "the default export must be defineEvalCheck(fn)";
  if (typeof (value as EvalCheckDefinition).check !== "function") return "an eval check needs a function";
  return null;
}

/** Eval checks under `evals/`, named by their path without the extension. */
async function loadEvalChecks(
  root: string,
  importModule: (file: string) => Promise<unknown>,
  problems: { file: string; message: string }[],
): Promise<Map<string, EvalCheckDefinition>> {
  const checks = new Map<string, EvalCheckDefinition>();
  for (const file of await listModules(root)) {
    const name = path
      .relative(root, file)
      .split(path.sep)
      .join("/")
      .replace(/\.[mc]?[jt]s$/, "");
    if (!MODULE_ID_PATTERN.test(name)) {
      problems.push({ file, message: `"${name}" is not a valid eval check name (letters, digits, _ and -)` });
      continue;
    }
    try {
      const value = defaultExport(await importModule(file));
      const problem = checkEvalCheck(value);
      if (problem) problems.push({ file, message: problem });
      else checks.set(name, value as EvalCheckDefinition);
    } catch (error) {
      problems.push({ file, message: `failed to load: ${(error as Error).message}` });
    }
  }
  return checks;
}

/** Effects under `effects/`, named by their path without the extension. */
async function loadEffects(
  root: string,
  importModule: (file: string) => Promise<unknown>,
  problems: { file: string; message: string }[],
): Promise<Map<string, EffectDefinition>> {
  const effects = new Map<string, EffectDefinition>();
  for (const file of await listModules(root)) {
    const name = path
      .relative(root, file)
      .split(path.sep)
      .join("/")
      .replace(/\.[mc]?[jt]s$/, "");
    if (!MODULE_ID_PATTERN.test(name)) {
      problems.push({ file, message: `"${name}" is not a valid effect name (letters, digits, _ and -)` });
      continue;
    }
    if (effects.has(name)) {
      problems.push({ file, message: `two files define the effect "${name}"` });
      continue;
    }
    try {
      const value = defaultExport(await importModule(file));
      const problem = checkEffect(value);
      if (problem) problems.push({ file, message: problem });
      else effects.set(name, value as EffectDefinition);
    } catch (error) {
      problems.push({ file, message: `failed to load: ${(error as Error).message}` });
    }
  }
  return effects;
}

export async function loadExtensions(directory: string): Promise<ExtensionRegistry> {
  const tools = new Map<string, CodeToolDefinition>();
  const hooks = new Map<string, HookDefinition>();
  const problems: { file: string; message: string }[] = [];
  const importModule = importer();
  const toolsRoot = path.join(directory, "tools");
  for (const file of await listModules(toolsRoot)) {
    const relative = path.relative(toolsRoot, file).split(path.sep).join("/");
    const id = relative.replace(/\.[mc]?[jt]s$/, "");
    if (!MODULE_ID_PATTERN.test(id)) {
      problems.push({ file, message: `"${id}" is not a valid module id (letters, digits, _ and -)` });
      continue;
    }
    if (tools.has(id)) {
      problems.push({ file, message: `two files define the code tool "${id}"` });
      continue;
    }
    try {
      const value = defaultExport(await importModule(file));
      const problem = checkTool(value);
      if (problem) problems.push({ file, message: problem });
      else tools.set(id, value as CodeToolDefinition);
    } catch (error) {
      problems.push({ file, message: `failed to load: ${(error as Error).message}` });
    }
  }
  for (const file of await listModules(path.join(directory, "hooks"))) {
    try {
      const value = defaultExport(await importModule(file));
      const problem = checkHook(value);
      if (problem) {
        problems.push({ file, message: problem });
        continue;
      }
      const hook = value as HookDefinition;
      if (hooks.has(hook.id)) {
        problems.push({ file, message: `hook id "${hook.id}" is already used by another file` });
        continue;
      }
      hooks.set(hook.id, hook);
    } catch (error) {
      problems.push({ file, message: `failed to load: ${(error as Error).message}` });
    }
  }
  const endpointsRoot = path.join(directory, "threads");
  const threadEndpoints = await loadThreadEndpoints(
    endpointsRoot,
    await listModules(endpointsRoot),
    async (file) => defaultExport(await importModule(file)),
    problems,
  );
  const effects = await loadEffects(path.join(directory, "effects"), importModule, problems);
  const evals = await loadEvalChecks(path.join(directory, "evals"), importModule, problems);
  const mcpConfig = await loadMcpConfig(directory);
  if (mcpConfig.problem) problems.push({ file: mcpConfig.file, message: mcpConfig.problem });
  for (const problem of problems)
    console.warn(`[tandem] extension ${path.relative(process.cwd(), problem.file)}: ${problem.message}`);
  return {
    directory,
    tools,
    hooks,
    threadEndpoints,
    effects,
    evals,
    mcp: new McpClients(mcpConfig),
    problems,
  };
}

export function extensionsDirectory(): string {
  // Read at run time, never bundled: the ignore keeps the build from tracing the whole project.
  return path.resolve(
    /*turbopackIgnore: true*/ process.cwd(),
    process.env.TANDEM_EXTENSIONS_DIR ?? "extensions",
  );
}

export const EMPTY_REGISTRY: ExtensionRegistry = {
  directory: "",
  tools: new Map(),
  hooks: new Map(),
  threadEndpoints: [],
  effects: new Map(),
  evals: new Map(),
  mcp: new McpClients({ file: "", servers: new Map() }),
  problems: [],
};

type RegistryGlobal = typeof globalThis & { __tandemExtensions?: Promise<ExtensionRegistry> };

/** The process's registry, loaded on first use. */
export function getExtensions(): Promise<ExtensionRegistry> {
  const holder = globalThis as RegistryGlobal;
  holder.__tandemExtensions ??= loadExtensions(extensionsDirectory());
  return holder.__tandemExtensions;
}
