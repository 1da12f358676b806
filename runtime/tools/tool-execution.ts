// What running one tool call yields (the stored tool message and what it changes about the thread),
// shared by the engine's tool executor and the subagent tool calls so neither imports the other.
import type { AttachmentRef } from "../extensions/define";

export interface ToolExecution {
  status: "success" | "error";
  /** The stored tool message content. */
  content: string;
  args: unknown;
  /** Set by a sessionStatus call: the thread's new status text. */
  statusText?: string;
  /** Stored on the tool message; a handoff records its target here so a resumed step still applies it. */
  metadata?: Record<string, unknown>;
  /** Files the tool returned, stored in the thread filesystem and referenced from the tool message. */
  attachments?: AttachmentRef[];
  /** A blocking subagent call whose child has not reported yet: nothing is stored, the thread waits. */
  pending?: true;
}

/** The stored content of a failed tool call (the reference runtime's template). */
export function errorContent(error: string): string {
  return `Failed to execute tool: ${error.trim() || "Tool execution failed"}`;
}
