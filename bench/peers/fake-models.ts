// Deterministic fake models for the peer benchmarks: no network, no latency, the same replies on
// every run. Each reply is a pure function of the messages the model is called with (a "stateful
// mock"), so one model instance serves any number of concurrent threads, and every call is
// recorded with its monotonic instant (the peer equivalent of Tandem's ModelCallProbe).
import { performance } from "node:perf_hooks";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { type Model, type ModelRequest, type ModelResponse, Usage } from "@openai/agents-core";

/** Records model calls per key (a thread id, or one shared key), at µs resolution. */
export class CallLog {
  readonly calls = new Map<string, number[]>();
  total = 0;

  record(key: string): void {
    const at = performance.now();
    let list = this.calls.get(key);
    if (!list) {
      list = [];
      this.calls.set(key, list);
    }
    list.push(at);
    this.total += 1;
  }

  clear(): void {
    this.calls.clear();
    this.total = 0;
  }
}

export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** What the fake model answers: text, or tool calls (a model turn that calls tools). */
export type FakeReply = { text: string } | { toolCalls: FakeToolCall[] };

export interface ScriptInput {
  messages: BaseMessage[];
}

/** A LangChain chat model whose reply is `script(messages)`; it records each call under `logKey(messages)`. */
export class ScriptedChatModel extends BaseChatModel {
  private callCounter = 0;

  constructor(
    private readonly script: (messages: BaseMessage[]) => FakeReply,
    private readonly log: CallLog | null = null,
    private readonly logKey: (messages: BaseMessage[]) => string = () => "all",
  ) {
    super({});
  }

  _llmType(): string {
    return "tandem-bench-scripted";
  }

  // The model ignores the tools it is given (its replies are scripted), as Tandem's scripted model does.
  override bindTools(): Runnable {
    return this as unknown as Runnable;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.log?.record(this.logKey(messages));
    const reply = this.script(messages);
    this.callCounter += 1;
    const message =
      "text" in reply
        ? new AIMessage({ content: reply.text })
        : new AIMessage({
            content: "",
            tool_calls: reply.toolCalls.map((call, index) => ({
              id: `call_${this.callCounter}_${index}`,
              name: call.name,
              args: call.args,
              type: "tool_call" as const,
            })),
          });
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

/** The text of a LangChain message (string content, or the text parts joined). */
export function messageText(message: BaseMessage | undefined): string {
  if (!message) return "";
  const { content } = message;
  if (typeof content === "string") return content;
  return content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

/** The agents-core items a fake `Model` answers with. */
export type AgentsReply = { text: string } | { toolCalls: FakeToolCall[] };

/** An OpenAI agents-core `Model` whose reply is `script(request)`; each call is recorded. */
export class ScriptedAgentsModel implements Model {
  private callCounter = 0;

  constructor(
    private readonly script: (request: ModelRequest) => AgentsReply,
    private readonly log: CallLog | null = null,
    private readonly logKey: (request: ModelRequest) => string = () => "all",
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.log?.record(this.logKey(request));
    const reply = this.script(request);
    this.callCounter += 1;
    const usage = new Usage({ requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    if ("text" in reply) {
      return {
        usage,
        output: [
          {
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: reply.text }],
          },
        ],
      };
    }
    return {
      usage,
      output: reply.toolCalls.map((call, index) => ({
        type: "function_call" as const,
        callId: `call_${this.callCounter}_${index}`,
        name: call.name,
        status: "completed" as const,
        arguments: JSON.stringify(call.args),
      })),
    };
  }

  // biome-ignore lint/correctness/useYield: the peers never stream; a run that asks to stream fails loudly.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("The scripted agents-core model does not stream");
  }
}
