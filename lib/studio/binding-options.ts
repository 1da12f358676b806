// What an agent side's session tools (sessionStop, sessionFail, sessionStatus) and stop tool can name,
// for the inspector's pick lists: the tools the side's prompt lists, every tool of the project, and,
// for a session tool, a new name (the runtime gives the side's AI a tool of that name). Pure.
import { definitionName, type Graph, toolEntryName } from "@/lib/graph";

/** A name for a session tool the project does not define yet, per binding. */
export const NEW_SESSION_TOOL_NAME: Record<string, string> = {
  sessionStop: "finish_session",
  sessionFail: "fail_session",
  sessionStatus: "report_status",
};

/** What each session tool does, in words (the inspector's hint under the field). */
export const SESSION_TOOL_HINT: Record<string, string> = {
  sessionStop: "Calling it ends the session and hands its message back to the parent as the result.",
  sessionFail: "Calling it ends the session as failed, with its message as the reason.",
  sessionStatus: "Calling it sends the parent a progress update; the session goes on.",
};

/** The prompt's listed tools first, then the project's other tools; `binding` adds a new name. */
export function bindingOptions(graph: Graph, promptName: string, binding?: string): string[] {
  const prompt = graph.nodes.find((node) => node.type === "prompt" && definitionName(node) === promptName);
  const listed =
    prompt?.type === "prompt" && Array.isArray(prompt.data.definition.tools)
      ? prompt.data.definition.tools.map(toolEntryName)
      : [];
  const tools = graph.nodes.flatMap((node) => (node.type === "tool" ? [definitionName(node)] : []));
  const fresh = binding ? NEW_SESSION_TOOL_NAME[binding] : undefined;
  const names = [...listed, ...tools, ...(fresh ? [fresh] : [])];
  return [...new Set(names.filter((name): name is string => Boolean(name)))];
}
