// Runs one tool call and turns any outcome — success, invalid arguments, unknown tool, exception —
// into a tool result; nothing here may crash the step loop (spec runtime §5.2). Result texts follow
// the reference runtime's templates.
import type { SqlExecutor } from "@/lib/db/sql-client";
import type { AttachmentRef, ThreadState, ToolAttachment } from "../extensions/define";
import type { ExtensionRegistry } from "../extensions/registry";
import {
  deleteThreadFile,
  grepThreadFiles,
  listThreadFiles,
  readThreadFile,
  writeThreadFile,
} from "../store/file-store";
import type { StoredToolCall } from "../store/messages";
import { BuiltinArgs } from "../tools/builtin-tools";
import { runCodeTool, toolTimeoutMsFromEnv, withToolTimeLimit } from "../tools/code-tool";
import { runHttpTool } from "../tools/http-tool";
import { checkJsonSchema, formatSchemaIssues } from "../tools/json-schema-check";
import { bindingMessage } from "./stop-rules";
import type { CatalogEntry, ToolCatalog } from "./tool-catalog";

// The result contract lives below both the engine and the subagent tools that produce it.
export { errorContent, type ToolExecution } from "../tools/tool-execution";

import { errorContent, type ToolExecution } from "../tools/tool-execution";

export type SubagentCatalogEntry = Extract<
  CatalogEntry,
  { kind: "subagent" | "subagent_create" | "subagent_message" }
>;

export const HANDOFF_COMPLETE = "Handoff complete";

/** Per call time limit of code tools (TANDEM_TOOL_TIMEOUT_MS), read once per process. */
const TOOL_TIMEOUT_MS = toolTimeoutMsFromEnv(process.env);

export interface ToolExecutionContext {
  threadId: string;
  db: SqlExecutor;
  catalog: ToolCatalog;
  abortSignal?: AbortSignal;
  /** Code tools installed on this server. */
  extensions?: ExtensionRegistry;
  /** The ThreadState handed to code tools (built on demand). */
  threadState?: () => Promise<ThreadState>;
  /** Stores files a tool returned; answers their refs and the text lines naming their paths. */
  storeAttachments?: (
    attachments: Array<ToolAttachment | AttachmentRef>,
  ) => Promise<{ refs: AttachmentRef[]; pathLines: string }>;
  /** Runs a prompt called as a tool (provided by the step runner, which owns model calls). */
  runSubprompt?: (
    entry: Extract<CatalogEntry, { kind: "subprompt" }>,
    args: Record<string, unknown>,
  ) => Promise<ToolExecution>;
  /** Runs a subagent tool call (provided by the step runner, which owns the parent's lifecycle). */
  runSubagent?: (
    entry: SubagentCatalogEntry,
    args: Record<string, unknown>,
    callId: string,
  ) => Promise<ToolExecution>;
}

export function successContent(result: string): string {
  return result.trim() || "Tool executed successfully";
}

export function notAvailableMessage(name: string): string {
  return `Tool "${name}" is not available for this prompt. You can only use tools that were explicitly configured for this prompt.`;
}

function parseArguments(call: StoredToolCall): { ok: true; args: unknown } | { ok: false; error: string } {
  try {
    const args = call.function.arguments.trim() === "" ? {} : JSON.parse(call.function.arguments);
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      return { ok: false, error: "Tool argument validation failed: [root] arguments must be a JSON object" };
    }
    return { ok: true, args };
  } catch (error) {
    return {
      ok: false,
      error: `Tool argument validation failed: [root] invalid JSON (${(error as Error).message})`,
    };
  }
}

export async function executeToolCall(
  call: StoredToolCall,
  context: ToolExecutionContext,
): Promise<ToolExecution> {
  const parsed = parseArguments(call);
  const entry = context.catalog.entries.get(call.function.name);
  if (!entry)
    return {
      status: "error",
      content: errorContent(notAvailableMessage(call.function.name)),
      args: parsed.ok ? parsed.args : call.function.arguments,
    };
  if (!parsed.ok)
    return { status: "error", content: errorContent(parsed.error), args: call.function.arguments };
  try {
    if (entry.kind === "subagent" || entry.kind === "subagent_create" || entry.kind === "subagent_message") {
      if (!context.runSubagent) {
        return {
          status: "error",
          content: errorContent(`"${entry.name}" starts a subagent, which cannot be done from a sub-prompt.`),
          args: parsed.args,
        };
      }
      return await context.runSubagent(entry, parsed.args as Record<string, unknown>, call.id);
    }
    return await run(entry, parsed.args, context);
  } catch (error) {
    return {
      status: "error",
      content: errorContent(error instanceof Error ? error.message : String(error)),
      args: parsed.args,
    };
  }
}

async function run(
  entry: CatalogEntry,
  args: unknown,
  context: ToolExecutionContext,
): Promise<ToolExecution> {
  if (entry.kind === "subagent" || entry.kind === "subagent_create" || entry.kind === "subagent_message") {
    return { status: "error", content: errorContent(`"${entry.name}" cannot run here.`), args };
  }
  if (entry.kind === "subprompt") return runSubpromptEntry(entry, args, context);
  if (entry.kind === "handoff") {
    if (entry.agent.exposeAsTool !== true) {
      return { status: "error", content: errorContent(`Agent tool not found: ${entry.name}`), args };
    }
    return {
      status: "success",
      content: HANDOFF_COMPLETE,
      args,
      metadata: { handoff: { agent: entry.agent.name } },
    };
  }
  if (entry.kind === "binding") return runBinding(entry, args, context);
  const tool = entry.tool;
  if (tool.kind === "builtin") return { ...(await runBuiltin(tool.builtin, args, context)), args };
  if (tool.kind === "http") {
    const result = await runHttpTool(tool, (args ?? {}) as Record<string, unknown>, {
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    return result.status === "success"
      ? { status: "success", content: successContent(result.text), args }
      : { status: "error", content: errorContent(result.text), args };
  }
  if (tool.kind === "mcp")
    return runMcp(tool.server, entry.remoteName ?? tool.tool ?? entry.name, args, context);
  return runCode(tool.module, args, context);
}

/** A sub-prompt called as a tool: its arguments checked against the prompt's requiredSchema first. */
async function runSubpromptEntry(
  entry: Extract<CatalogEntry, { kind: "subprompt" }>,
  args: unknown,
  context: ToolExecutionContext,
): Promise<ToolExecution> {
  const issues = checkJsonSchema(entry.prompt.requiredSchema as Record<string, unknown> | undefined, args);
  if (issues.length > 0) {
    return {
      status: "error",
      content: errorContent(`Prompt tool argument validation failed: ${formatSchemaIssues(issues)}`),
      args,
    };
  }
  if (!context.runSubprompt)
    return { status: "error", content: errorContent("Sub-prompts cannot run here."), args };
  return context.runSubprompt(entry, args as Record<string, unknown>);
}

/** A session binding (sessionStop, sessionFail, sessionStatus), after the tool of its name if defined. */
async function runBinding(
  entry: Extract<CatalogEntry, { kind: "binding" }>,
  args: unknown,
  context: ToolExecutionContext,
): Promise<ToolExecution> {
  if (entry.tool) {
    const underlying = await run({ kind: "tool", name: entry.name, tool: entry.tool }, args, context);
    if (underlying.status === "error") return underlying;
  }
  const message = bindingMessage(entry.binding, args);
  if (entry.role === "sessionStatus") {
    return {
      status: "success",
      content: successContent(message ? `Status updated: ${message}` : "Status updated"),
      args,
      statusText: message,
    };
  }
  return {
    status: "success",
    content: successContent(entry.role === "sessionStop" ? "Session completed" : "Session ended as failed"),
    args,
  };
}

/** A tool of a configured MCP server; the server validates the arguments against its own schema. */
async function runMcp(
  server: string,
  remoteName: string,
  args: unknown,
  context: ToolExecutionContext,
): Promise<ToolExecution> {
  const clients = context.extensions?.mcp;
  if (!clients) {
    return { status: "error", content: errorContent(`MCP server "${server}" is not configured.`), args };
  }
  const outcome = await clients.callTool(server, remoteName, (args ?? {}) as Record<string, unknown>, {
    timeoutMs: TOOL_TIMEOUT_MS || 2 ** 31 - 1,
    ...(context.abortSignal ? { signal: context.abortSignal } : {}),
  });
  return outcome.status === "success"
    ? { status: "success", content: successContent(outcome.content), args }
    : { status: "error", content: errorContent(outcome.content), args };
}

async function runCode(
  moduleId: string,
  args: unknown,
  context: ToolExecutionContext,
): Promise<ToolExecution> {
  const outcome = await withToolTimeLimit(
    runCodeTool(context.extensions?.tools.get(moduleId), moduleId, args, async () => {
      if (!context.threadState) throw new Error("Code tools cannot run here.");
      return context.threadState();
    }),
    moduleId,
    TOOL_TIMEOUT_MS,
  );
  let attachments: AttachmentRef[] = [];
  let pathLines = "";
  if (outcome.attachments.length > 0 && context.storeAttachments) {
    try {
      ({ refs: attachments, pathLines } = await context.storeAttachments(outcome.attachments));
    } catch (error) {
      return {
        status: "error",
        content: errorContent(`Storing the tool's attachments failed: ${(error as Error).message}`),
        args,
      };
    }
  }
  const content =
    outcome.status === "success"
      ? successContent(outcome.text) + pathLines
      : errorContent(outcome.text) + pathLines;
  return { status: outcome.status, content, args, ...(attachments.length > 0 ? { attachments } : {}) };
}

function validation(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return `Tool argument validation failed: ${error.issues
    .map((issue) => `[${issue.path.map(String).join(".") || "root"}] ${issue.message}`)
    .join("; ")}`;
}

async function runBuiltin(
  builtin: keyof typeof BuiltinArgs,
  args: unknown,
  { db, threadId }: ToolExecutionContext,
): Promise<Omit<ToolExecution, "args">> {
  const schema = BuiltinArgs[builtin];
  const parsed = schema.safeParse(args);
  if (!parsed.success) return { status: "error", content: errorContent(validation(parsed.error)) };
  const input = parsed.data as Record<string, string | undefined>;
  switch (builtin) {
    case "fs_write": {
      const record = await writeThreadFile(
        db,
        threadId,
        input.path ?? "",
        Buffer.from(input.content ?? "", "utf8"),
        input.mimeType ?? "text/plain",
      );
      return { status: "success", content: successContent(`Wrote ${record.size} bytes to ${record.path}`) };
    }
    case "fs_read": {
      const file = await readThreadFile(db, threadId, input.path ?? "");
      if (!file) return { status: "error", content: errorContent(`No file at ${input.path}`) };
      return { status: "success", content: successContent(Buffer.from(file.data).toString("utf8")) };
    }
    case "fs_list": {
      const entries = await listThreadFiles(db, threadId, input.path ?? "/");
      return { status: "success", content: successContent(fileListing(entries)) };
    }
    case "fs_delete": {
      const deleted = await deleteThreadFile(db, threadId, input.path ?? "");
      return deleted
        ? { status: "success", content: successContent(`Deleted ${input.path}`) }
        : { status: "error", content: errorContent(`No file at ${input.path}`) };
    }
    case "fs_grep": {
      const hits = await grepThreadFiles(db, threadId, input.pattern ?? "");
      return { status: "success", content: successContent(grepLines(hits)) };
    }
  }
}

/** fs_list's answer: one line per entry, directories with a slash, files with their size. */
function fileListing(entries: Awaited<ReturnType<typeof listThreadFiles>>): string {
  if (entries.length === 0) return "(empty)";
  return entries
    .map((entry) => (entry.isDirectory ? `${entry.path}/` : `${entry.path} (${entry.size} bytes)`))
    .join("\n");
}

/** fs_grep's answer: one `path:line: text` line per match. */
function grepLines(hits: Awaited<ReturnType<typeof grepThreadFiles>>): string {
  if (hits.length === 0) return "No matches";
  return hits
    .flatMap((hit) => hit.matches.map((line, i) => `${hit.path}:${hit.lineNumbers[i]}: ${line}`))
    .join("\n");
}
