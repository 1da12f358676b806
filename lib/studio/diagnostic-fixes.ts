// One-click fixes for the diagnostics whose fix is certain: Problems and the inspector offer them as a
// button beside the message. Pure: a fix is a document edit (one undo step in the store).
import {
  type DefinitionNode,
  definitionName,
  type Graph,
  type GraphDiagnostic,
  toolEntryName,
} from "@/lib/graph";
import { pathWithinDefinition } from "./diagnostic-targets";
import { findNode, setDefinitionField } from "./document-edits";

export interface DiagnosticFix {
  /** The button's text, e.g. "Expose review_loop as a tool". */
  label: string;
  /** What the status line says once it is applied. */
  done: string;
  apply(graph: Graph): Graph;
}

const TOOL_ENTRY_PATH = /^\.tools\[(\d+)\]/;

/** The agent a prompt's tools entry at the diagnostic's path calls, by its node. */
function calledAgent(graph: Graph, diagnostic: GraphDiagnostic) {
  const prompt = diagnostic.node_id ? findNode(graph, diagnostic.node_id) : undefined;
  const index = TOOL_ENTRY_PATH.exec(pathWithinDefinition(diagnostic.path))?.[1];
  if (prompt?.type !== "prompt" || index === undefined) return undefined;
  const tools = prompt.data.definition.tools;
  const name = Array.isArray(tools) ? toolEntryName(tools[Number(index)]) : undefined;
  if (!name) return undefined;
  return graph.nodes.find(
    (node): node is DefinitionNode => node.type === "agent" && definitionName(node) === name,
  );
}

/** The certain fix of `diagnostic` on `graph`, or null when it has none (or the document moved on). */
export function diagnosticFix(graph: Graph, diagnostic: GraphDiagnostic): DiagnosticFix | null {
  if (diagnostic.code === "agent_not_exposed") {
    const agent = calledAgent(graph, diagnostic);
    if (!agent) return null;
    const name = definitionName(agent);
    return {
      label: `Expose ${name} as a tool`,
      done:
        typeof agent.data.definition.toolDescription === "string" &&
        agent.data.definition.toolDescription.trim()
          ? `${name} is exposed as a tool.`
          : `${name} is exposed as a tool; give it a tool description so callers know when to use it.`,
      apply: (document) => setDefinitionField(document, agent.id, "exposeAsTool", true),
    };
  }
  return null;
}
