import { describe, expect, it } from "vitest";
import { assembleSubpromptResult } from "./subprompt-result";

const all = { includeTextResponse: true, includeToolCalls: true, includeErrors: true };

describe("assembleSubpromptResult", () => {
  it("joins the text and the tool executions on success", () => {
    expect(
      assembleSubpromptResult(
        "Summary done",
        [{ name: "search", argumentsJson: '{"q":"x"}', status: "success", content: "3 hits" }],
        all,
      ),
    ).toEqual({
      status: "success",
      content: 'Summary done\n\nTool Executions:\nTool Call: search({"q":"x"})\nTool Response: 3 hits',
    });
  });

  it("leaves out what the options exclude, and says so when nothing is left", () => {
    const calls = [{ name: "search", argumentsJson: "{}", status: "success" as const, content: "3 hits" }];
    expect(assembleSubpromptResult("text", calls, { ...all, includeToolCalls: false })).toEqual({
      status: "success",
      content: "text",
    });
    expect(assembleSubpromptResult("", [], all)).toEqual({
      status: "success",
      content: "Prompt executed successfully",
    });
  });

  it("reports failures with the tool names and the other tools run", () => {
    const result = assembleSubpromptResult(
      "ignored",
      [
        { name: "search", argumentsJson: "{}", status: "success", content: "ok" },
        {
          name: "fetch",
          argumentsJson: "{}",
          status: "error",
          content: "Error: Failed to execute tool: timeout",
        },
      ],
      all,
    );
    expect(result).toEqual({
      status: "error",
      content: "Sub-prompt failed with 1 error(s):\n  fetch: timeout\n\nOther tools run: search",
    });
    expect(
      assembleSubpromptResult("x", [{ name: "f", argumentsJson: "{}", status: "error", content: "boom" }], {
        ...all,
        includeErrors: false,
        includeToolCalls: false,
      }),
    ).toEqual({ status: "error", content: "Error: Tool execution failed" });
  });
});
