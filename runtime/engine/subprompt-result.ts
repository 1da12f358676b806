// The result text of a prompt called as a tool (spec notes §1.8, the reference runtime's format),
// pure: assembled from the sub-prompt's text and its tool calls under its include* options.
export interface SubpromptCall {
  name: string;
  argumentsJson: string;
  status: "success" | "error";
  content: string;
}

export interface SubpromptResultOptions {
  includeTextResponse: boolean;
  includeToolCalls: boolean;
  includeErrors: boolean;
}

const FAILED_PREFIX = "Failed to execute tool: ";

export function assembleSubpromptResult(
  text: string,
  calls: readonly SubpromptCall[],
  options: SubpromptResultOptions,
): { status: "success" | "error"; content: string } {
  const errors = calls.filter((call) => call.status === "error");
  if (errors.length > 0) {
    const parts: string[] = [];
    if (options.includeErrors) {
      const lines = errors.map((call) => {
        const message = call.content.startsWith("Error: ") ? call.content.slice(7) : call.content;
        return `  ${call.name}: ${message.startsWith(FAILED_PREFIX) ? message.slice(FAILED_PREFIX.length) : message}`;
      });
      parts.push(`Sub-prompt failed with ${errors.length} error(s):\n${lines.join("\n")}`);
    }
    if (options.includeToolCalls) {
      const others = calls.filter((call) => call.status === "success").map((call) => call.name);
      if (others.length > 0) parts.push(`Other tools run: ${others.join(", ")}`);
    }
    return { status: "error", content: parts.join("\n\n") || "Error: Tool execution failed" };
  }
  const parts: string[] = [];
  if (options.includeTextResponse && text.trim()) parts.push(text);
  const lines: string[] = [];
  for (const call of calls) {
    if (options.includeToolCalls) lines.push(`Tool Call: ${call.name}(${call.argumentsJson})`);
    if (options.includeToolCalls) lines.push(`Tool Response: ${call.content}`);
  }
  if (lines.length > 0) parts.push(`Tool Executions:\n${lines.join("\n")}`);
  return { status: "success", content: parts.join("\n\n") || "Prompt executed successfully" };
}
