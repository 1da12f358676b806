// state.runCode inside a real thread: a code tool (test/extensions/tools/run_snippet.ts) runs the
// scripted model's snippets in the sandbox, and what the sandbox returns (a value and its logs, a
// timeout, a refused capability) is the tool message the model reads next.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile({ TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions") });
const { projectWith, startThread, waitFor, messagesOf, modelRequests } = threadHelpers(fixture);

const snippet = `import { add, name } from "shop";
console.log("pricing");
const subtotal: number = add(40, 2);
export default { total: subtotal * (1 + taxRate), shop: await name() };`;

describe("state.runCode from a code tool", () => {
  it("runs the snippet in the sandbox during the run and stores its outcome as the tool result", async () => {
    const projectId = await projectWith({
      agents: [{ name: "coder", sideA: { prompt: "coder_chat" }, env: { SHOP_NAME: "Agent Shop" } }],
      prompts: [
        {
          name: "coder_chat",
          toolDescription: "Writes code",
          prompt: "You run code.",
          model: "demo",
          includeChat: true,
          tools: ["run_snippet"],
        },
      ],
      models: [
        {
          name: "demo",
          provider: "scripted",
          model: "scripted",
          script: [
            {
              toolCalls: [
                { name: "run_snippet", args: { source: snippet } },
                { name: "run_snippet", args: { source: "while (true) {}", timeoutMs: 200 } },
                { name: "run_snippet", args: { source: "export default process.env" } },
              ],
            },
            { text: "done" },
          ],
        },
      ],
      tools: [{ name: "run_snippet", description: "Runs code", kind: "code", module: "run_snippet" }],
    });

    const threadId = await startThread(projectId, "coder", "Price the order");
    await waitFor(threadId, ["idle"]);
    const results = (await messagesOf(threadId))
      .filter((message) => message.role === "tool")
      .map((message) => [message.tool_status, message.content]);
    const success = JSON.stringify({ value: { total: 63, shop: "Agent Shop" }, logs: ["pricing"] }, null, 2);
    expect(results).toEqual([
      ["success", success],
      ["error", "Failed to execute tool: timeout: Timed out after 200 ms"],
      [
        "error",
        expect.stringMatching(/^Failed to execute tool: error: ReferenceError: 'process' is not defined/),
      ],
    ]);
    // The model's next request carries the sandbox's result.
    const requests = await modelRequests(threadId);
    expect(JSON.stringify(requests[1]!.messages)).toContain(JSON.stringify(success).slice(1, -1));
  });
});
