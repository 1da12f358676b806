// Runs a code tool: a server-side module from the extensions folder (defineTool), never code from a
// definition. Arguments are validated with the module's zod schema; its ToolResult becomes the stored
// tool message the way the reference runtime stores it (spec notes §2.4).
import type {
  AttachmentRef,
  CodeToolDefinition,
  ThreadState,
  ToolAttachment,
  ToolResult,
} from "../extensions/define";

export interface CodeToolOutcome {
  status: "success" | "error";
  /** The tool's own text (result or error), before the runtime's success/error wording. */
  text: string;
  attachments: Array<ToolAttachment | AttachmentRef>;
}

export function notInstalledMessage(moduleId: string): string {
  return `Code tool module "${moduleId}" is not installed on this server (extensions/tools/${moduleId}.ts).`;
}

/** A ToolResult's text: strings as they are, MCP-style content arrays joined, anything else as JSON. */
export function resultText(raw: unknown): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw === "string") return raw;
  if (
    Array.isArray(raw) &&
    raw.every(
      (part) => part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string",
    )
  ) {
    return raw.map((part) => (part as { text: string }).text).join("\n");
  }
  return JSON.stringify(raw, null, 2);
}

export function normaliseToolResult(value: unknown): CodeToolOutcome {
  if (!value || typeof value !== "object" || !("status" in value)) {
    return {
      status: "error",
      text: 'The tool returned no ToolResult (expected { status: "success" | "error", result?, error? }).',
      attachments: [],
    };
  }
  const result = value as ToolResult;
  const attachments = Array.isArray(result.attachments) ? result.attachments : [];
  if (result.status === "error") {
    // A tool that reports an error without an error string has its result text used as the error.
    const text =
      typeof result.error === "string" && result.error.trim() ? result.error : resultText(result.result);
    return { status: "error", text, attachments };
  }
  return { status: "success", text: resultText(result.result), attachments };
}

export function validationMessage(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  return `Tool argument validation failed: ${issues
    .map((issue) => `[${issue.path.map(String).join(".") || "root"}] ${issue.message}`)
    .join("; ")}`;
}

export async function runCodeTool(
  tool: CodeToolDefinition | undefined,
  moduleId: string,
  args: unknown,
  state: () => Promise<ThreadState>,
): Promise<CodeToolOutcome> {
  if (!tool) return { status: "error", text: notInstalledMessage(moduleId), attachments: [] };
  let input: unknown = args;
  if (tool.args) {
    const parsed = tool.args.safeParse(args ?? {});
    if (!parsed.success)
      return { status: "error", text: validationMessage(parsed.error.issues), attachments: [] };
    input = parsed.data;
  }
  try {
    const execute = tool.execute as (state: ThreadState, args?: unknown) => Promise<ToolResult>;
    const threadState = await state();
    const value = tool.args ? await execute(threadState, input) : await execute(threadState);
    return normaliseToolResult(value);
  } catch (error) {
    return {
      status: "error",
      text: error instanceof Error ? error.message : String(error),
      attachments: [],
    };
  }
}

/** A code tool's time limit when TANDEM_TOOL_TIMEOUT_MS is not set (HTTP tools have their own). */
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;

/** TANDEM_TOOL_TIMEOUT_MS, or the default; 0 turns the limit off. */
export function toolTimeoutMsFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.TANDEM_TOOL_TIMEOUT_MS?.trim();
  const value = raw ? Number(raw) : DEFAULT_TOOL_TIMEOUT_MS;
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_TOOL_TIMEOUT_MS;
}

export function toolTimeoutMessage(moduleId: string, timeoutMs: number): string {
  return `Tool "${moduleId}" timed out after ${timeoutMs} ms (TANDEM_TOOL_TIMEOUT_MS).`;
}

/**
 * The tool's outcome, or an error result once `timeoutMs` passed. Code runs in this process and
 * cannot be killed: the step stops waiting for it and the model reads the error; whatever the tool
 * still does is ignored.
 */
export async function withToolTimeLimit(
  running: Promise<CodeToolOutcome>,
  moduleId: string,
  timeoutMs: number,
): Promise<CodeToolOutcome> {
  if (timeoutMs <= 0) return running;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<CodeToolOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: "error", text: toolTimeoutMessage(moduleId, timeoutMs), attachments: [] }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([running, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
