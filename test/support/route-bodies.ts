// A well-formed body for every route that takes one (POST, PUT, PATCH), and the URL to send it to,
// for the tests that feed every such route bad input (test/api/fuzz, test/api/prototype-keys).
import { PLACEHOLDER_ID } from "./routes";

/** A one-prompt chat agent on a scripted model: the definitions the route bodies use. */
export const chatDefinitions = {
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo", includeChat: true }],
  models: [
    { name: "demo", provider: "scripted", model: "s", script: [{ text: "hello" }, { text: "again" }] },
  ],
  tools: [],
};

/** An eval suite for `chatDefinitions` (API.md "Evaluations"). */
export const evalSuiteBody = {
  name: "fuzzed suite",
  agent_id: "assistant",
  cases: [
    { name: "greets", input: { messages: ["hi"] }, assertions: [{ type: "contains", value: "hello" }] },
  ],
  assertions: [{ type: "max_turns", value: 3 }],
};

/** The body each route expects, and the URL to send it to (ids of the target project and thread). */
export function routeBody(
  pattern: string,
  target: { projectId: string; threadId: string },
): { url: string; template: Record<string, unknown> } | undefined {
  const url = pattern
    .replace("/api/projects/[id]", `/api/projects/${target.projectId}`)
    .replace(/\/(api\/)?threads\/\[id\]/, (match) => match.replace("[id]", target.threadId))
    .replace("[version]", "1")
    .replace("[requestId]", PLACEHOLDER_ID)
    .replace("[approvalId]", PLACEHOLDER_ID)
    .replace("[suiteId]", PLACEHOLDER_ID)
    .replace("[runId]", PLACEHOLDER_ID)
    .replace("[[...path]]", "fuzz/endpoint")
    .replace("[...path]", "fuzz/file.txt");
  const templates: Record<string, Record<string, unknown>> = {
    "/api/projects": { name: "fuzzed", definitions: chatDefinitions },
    "/api/projects/[id]": { name: "renamed" },
    "/api/projects/[id]/graph": { graph: { nodes: [] }, base_version: 1 },
    "/api/projects/[id]/definitions": chatDefinitions,
    "/api/projects/[id]/import": chatDefinitions,
    "/api/projects/[id]/versions/[version]/restore": { base_version: 1 },
    // An id that names no thread: well-formed bodies skip it; without ids, the latest finished run.
    "/api/projects/[id]/replays": { thread_ids: [PLACEHOLDER_ID], limit: 1, from_version: "same" },
    // The MCP Streamable HTTP endpoint: JSON-RPC bodies, refused by the SDK's transport with 4xx.
    "/api/projects/[id]/mcp": { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    "/api/projects/[id]/evals": evalSuiteBody,
    // An id that names no suite or run: well-formed bodies are 404s, nothing changes or runs.
    "/api/projects/[id]/evals/[suiteId]": evalSuiteBody,
    "/api/projects/[id]/evals/[suiteId]/cases/from-thread": { thread_id: target.threadId },
    "/api/projects/[id]/evals/[suiteId]/runs": { version: 1, repetitions: 1, concurrency: 1 },
    "/api/eval-runs/[runId]/cancel": {},
    "/api/threads": { project_id: target.projectId, agent_id: "assistant", message: "hi" },
    "/api/threads/[id]/messages": { content: "hi", attachments: [] },
    // An id that names no message of the target: well-formed bodies are 404s, nothing is forked.
    "/api/threads/[id]/fork": { at_message_id: PLACEHOLDER_ID, content: "hi", replace: false },
    "/api/threads/[id]/stop": {},
    // The body is optional (from_version defaults to "latest"): most bodies start a replay, rightly.
    "/api/threads/[id]/replay": { from_version: "same" },
    // An id that names no approval: well-formed bodies are 404s, nothing is decided.
    "/api/approvals/[approvalId]": { decision: "approve", args: { path: "/x" }, reason: "x" },
    "/api/threads/[id]/terminate": {},
    "/api/threads/[id]/variables/[requestId]": { values: { NAME: "v" } },
    "/threads/[id]/variables/[requestId]": { values: { NAME: "v" } },
    "/api/threads/[id]/fs/[...path]": { content: "x" },
    // No extensions folder on this server: every endpoint path is a 404.
    "/api/threads/[id]/endpoints/[[...path]]": { note: "x" },
    "/api/auth/login": { token: "x" },
    "/api/auth/logout": {},
    // Where malformed percent-encodings are rewritten: 400 whatever the body.
    "/api/malformed-url": {},
  };
  const template = templates[pattern];
  return template ? { url, template } : undefined;
}
