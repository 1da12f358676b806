import { describe, expect, it } from "vitest";
import type { ModelDefinition } from "@/lib/standard";
import { ModelProviderError } from "./errors";
import {
  callScriptedModel,
  delayedChunkCount,
  SCRIPT_EXHAUSTED_TEXT,
  scriptPosition,
  splitIntoChunks,
} from "./scripted";
import type { ModelCallRequest, ModelMessage } from "./types";

function scripted(script: ModelDefinition["script"], scriptLoopFrom?: number): ModelDefinition {
  return { name: "worker_model", provider: "scripted", model: "scripted", script, scriptLoopFrom };
}

function request(messages: ModelMessage[], extra: Partial<ModelCallRequest> = {}): ModelCallRequest {
  return { messages, tools: [], toolChoice: "auto", parallelToolCalls: false, ...extra };
}

const conversation: ModelMessage[] = [
  { role: "system", content: "You are a worker." },
  { role: "user", content: "first question" },
  { role: "assistant", content: "", toolCalls: [{ id: "call_0_0", name: "lookup", args: {} }] },
  { role: "tool", toolCallId: "call_0_0", toolName: "lookup", content: "old result" },
  {
    role: "user",
    content: [
      { type: "text", text: "draft the" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { type: "text", text: "press release" },
    ],
  },
  { role: "tool", toolCallId: "call_1_0", toolName: "lookup", content: "fresh result" },
];

describe("scripted provider", () => {
  it("answers script[scriptedCallIndex], then the exhausted text", async () => {
    const model = scripted([{ text: "zero" }, { text: "one" }]);
    const answers = [];
    for (const index of [undefined, 1, 2, 7]) {
      answers.push((await callScriptedModel(model, request([], { scriptedCallIndex: index }))).text);
    }
    expect(answers).toEqual(["zero", "one", SCRIPT_EXHAUSTED_TEXT, SCRIPT_EXHAUSTED_TEXT]);
    expect((await callScriptedModel(scripted(undefined), request([]))).text).toBe(SCRIPT_EXHAUSTED_TEXT);
  });

  it("with scriptLoopFrom, repeats the steps from there on instead of exhausting", async () => {
    const texts = async (model: ModelDefinition, calls: number) => {
      const answers: string[] = [];
      for (let index = 0; index < calls; index++) {
        answers.push((await callScriptedModel(model, request([], { scriptedCallIndex: index }))).text);
      }
      return answers;
    };
    const steps = [{ text: "hello" }, { text: "a" }, { text: "b" }, { text: "c" }];
    expect(await texts(scripted(steps, 1), 9)).toEqual(["hello", "a", "b", "c", "a", "b", "c", "a", "b"]);
    expect(await texts(scripted(steps, 0), 6)).toEqual(["hello", "a", "b", "c", "hello", "a"]);
    expect(await texts(scripted(steps, 3), 6)).toEqual(["hello", "a", "b", "c", "c", "c"]);
    // The default is unchanged: without scriptLoopFrom the script exhausts.
    expect((await texts(scripted(steps), 5)).at(-1)).toBe(SCRIPT_EXHAUSTED_TEXT);
  });

  it("gives looped tool calls ids from the call index, so every round's ids differ", async () => {
    const model = scripted([{ toolCalls: [{ name: "approve", args: {} }] }], 0);
    const first = await callScriptedModel(model, request([], { scriptedCallIndex: 0 }));
    const again = await callScriptedModel(model, request([], { scriptedCallIndex: 3 }));
    expect(first.toolCalls[0]?.id).toBe("call_0_0");
    expect(again.toolCalls[0]).toEqual({ id: "call_3_0", name: "approve", args: {} });
  });

  it("scriptPosition ignores a loop start past the end (validation reports it) and an empty script", () => {
    expect(scriptPosition({ script: [{ text: "x" }], scriptLoopFrom: 1 }, 1)).toBeUndefined();
    expect(scriptPosition({ script: [], scriptLoopFrom: 0 }, 0)).toBeUndefined();
    expect(scriptPosition({ script: [{ text: "x" }, { text: "y" }], scriptLoopFrom: 1 }, 1_000_001)).toBe(1);
  });

  it("interpolates {{input}} and {{tool_result}} in text and deeply in tool-call args", async () => {
    const model = scripted([
      {
        text: "Draft: {{input}} / {{tool_result}} / $& {{unknown}}",
        toolCalls: [
          {
            name: "approve_asset",
            args: {
              summary: "{{input}}",
              nested: { list: ["{{tool_result}}", 3, true, null] },
              "{{input}}": "k",
            },
          },
        ],
      },
    ]);
    const answer = await callScriptedModel(model, request(conversation));
    expect(answer.text).toBe("Draft: draft the\npress release / fresh result / $& {{unknown}}");
    expect(answer.toolCalls[0]?.args).toEqual({
      summary: "draft the\npress release",
      nested: { list: ["fresh result", 3, true, null] },
      "{{input}}": "k",
    });
  });

  it("does not re-interpolate placeholders that appear inside the user's content", async () => {
    const model = scripted([{ text: "{{input}}|{{tool_result}}" }]);
    const answer = await callScriptedModel(
      model,
      request([{ role: "user", content: "say {{tool_result}} $1" }]),
    );
    expect(answer.text).toBe("say {{tool_result}} $1|");
  });

  it("gives tool calls deterministic ids from the call index and their position", async () => {
    const model = scripted([
      { text: "a" },
      {
        toolCalls: [
          { name: "first", args: {} },
          { name: "second", args: { n: 1 } },
        ],
      },
    ]);
    const once = await callScriptedModel(model, request([], { scriptedCallIndex: 1 }));
    const again = await callScriptedModel(model, request([], { scriptedCallIndex: 1 }));
    expect(once.toolCalls).toEqual([
      { id: "call_1_0", name: "first", args: {} },
      { id: "call_1_1", name: "second", args: { n: 1 } },
    ]);
    expect(again.toolCalls).toEqual(once.toolCalls);
    expect(once.text).toBe("");
  });

  it("reports usage at four characters per token", async () => {
    const messages: ModelMessage[] = [
      { role: "system", content: "12345" }, // 5
      { role: "user", content: [{ type: "text", text: "abc" }] }, // 3
      { role: "tool", toolCallId: "x", toolName: "t", content: "xy" }, // 2
    ];
    const model = scripted([{ text: "hello", toolCalls: [{ name: "t", args: { a: 1 } }] }]);
    const answer = await callScriptedModel(model, request(messages));
    const toolCallJson = JSON.stringify([{ id: "call_0_0", name: "t", args: { a: 1 } }]);
    expect(answer.usage).toEqual({
      inputTokens: Math.ceil(10 / 4),
      outputTokens: Math.ceil((5 + toolCallJson.length) / 4),
      cachedInputTokens: 0,
    });
  });

  it("streams the text at once when there is no delay", async () => {
    const deltas: string[] = [];
    await callScriptedModel(
      scripted([{ text: "plain" }]),
      request([], { onTextDelta: (d) => deltas.push(d) }),
    );
    expect(deltas).toEqual(["plain"]);
  });

  it("streams a delayed text in several ordered chunks spread over the delay", async () => {
    const deltas: { chunk: string; at: number }[] = [];
    const started = performance.now();
    const answer = await callScriptedModel(
      scripted([{ text: "thinking about it...", delayMs: 80 }]),
      request([], { onTextDelta: (chunk) => deltas.push({ chunk, at: performance.now() - started }) }),
    );
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((d) => d.chunk).join("")).toBe("thinking about it...");
    expect(answer.text).toBe("thinking about it...");
    expect(deltas[0]!.at).toBeGreaterThanOrEqual(10);
    expect(deltas.at(-1)!.at).toBeGreaterThanOrEqual(70);
  });

  it("streams a long delay in many small chunks, about one every 80 ms", async () => {
    const deltas: string[] = [];
    const text = "A reply long enough to arrive as many visible pieces while the user watches it.";
    await callScriptedModel(
      scripted([{ text, delayMs: 1_500 }]),
      request([], { onTextDelta: (chunk) => deltas.push(chunk) }),
    );
    expect(deltas.join("")).toBe(text);
    expect(deltas.length).toBeGreaterThanOrEqual(15);
    expect(delayedChunkCount(80)).toBe(4);
    expect(delayedChunkCount(1_500)).toBe(19);
    expect(delayedChunkCount(60_000)).toBe(40);
  });

  it("stops a delayed answer when the signal aborts", async () => {
    const controller = new AbortController();
    const deltas: string[] = [];
    setTimeout(() => controller.abort(), 30);
    const started = performance.now();
    await expect(
      callScriptedModel(
        scripted([{ text: "a long streamed answer", delayMs: 5_000 }]),
        request([], { abortSignal: controller.signal, onTextDelta: (d) => deltas.push(d) }),
      ),
    ).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(deltas.join("")).not.toBe("a long streamed answer");
  });

  it("fails a delayed answer whose text consumer throws, and streams nothing after it", async () => {
    const deltas: string[] = [];
    const failing = callScriptedModel(
      scripted([{ text: "a streamed answer", delayMs: 80 }]),
      request([], {
        onTextDelta: (d) => {
          deltas.push(d);
          if (deltas.length === 2) throw new Error("the consumer failed");
        },
      }),
    );
    await expect(failing).rejects.toThrow("the consumer failed");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(deltas).toHaveLength(2);
  });

  it("fails an error step like a provider error, without streaming text", async () => {
    const deltas: string[] = [];
    const failing = callScriptedModel(
      scripted([{ error: "simulated provider failure", text: "never shown" }]),
      request([], { onTextDelta: (d) => deltas.push(d) }),
    );
    await expect(failing).rejects.toBeInstanceOf(ModelProviderError);
    await expect(failing).rejects.toThrow("simulated provider failure");
    expect(deltas).toEqual([]);
  });
});

describe("splitIntoChunks", () => {
  it("keeps every character, in order, in at most the requested number of pieces", () => {
    expect(splitIntoChunks("abcdefghij", 4)).toEqual(["abc", "def", "ghi", "j"]);
    expect(splitIntoChunks("ab", 4)).toEqual(["a", "b"]);
    expect(splitIntoChunks("😀😀", 4)).toEqual(["😀", "😀"]);
  });
});
