// Test support: a local model provider that records what it received and misbehaves on request:
// OpenAI chat completions (SSE `chat.completion.chunk`s at `/chat/completions`) and Anthropic
// messages (SSE `content_block_delta`s at `/messages`). A reply is an error status with headers
// (429 with `retry-after-ms`, 503), a stream (slow to start, or cut after some chunks), or a raw body
// (garbage).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

const ChatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string() })),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  stream: z.boolean().optional(),
});
export type RecordedChatRequest = z.infer<typeof ChatRequestSchema> & {
  path: string;
  authorization?: string;
};

export type FakeReply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | {
      chunks: unknown[];
      pauseMs?: number;
      /** Wait this long before the first chunk (a slow first token). */
      firstChunkDelayMs?: number;
      /** Drop the connection after this many chunks (a cut stream; no [DONE]). */
      cutAfter?: number;
      /** Anthropic streams name each event (`event: <type>`) and end without [DONE]. */
      named?: boolean;
    }
  | { raw: string; status?: number; contentType?: string };
export type FakeResponder = (request: RecordedChatRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAIServer {
  baseURL: string;
  requests: RecordedChatRequest[];
  close(): Promise<void>;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
}

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function usageChunk(model: string, usage: FakeUsage) {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [],
    usage: {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
    },
  };
}

export function textReply(model: string, pieces: string[], usage: FakeUsage): FakeReply {
  return {
    chunks: [
      chunk(model, { role: "assistant", content: "" }),
      ...pieces.map((piece) => chunk(model, { content: piece })),
      chunk(model, {}, "stop"),
      usageChunk(model, usage),
    ],
  };
}

export function toolCallReply(
  model: string,
  call: { id: string; name: string; argumentFragments: string[] },
  usage: FakeUsage,
): FakeReply {
  const [first = "", ...rest] = call.argumentFragments;
  return {
    chunks: [
      chunk(model, {
        role: "assistant",
        content: null,
        tool_calls: [
          { index: 0, id: call.id, type: "function", function: { name: call.name, arguments: first } },
        ],
      }),
      ...rest.map((fragment) =>
        chunk(model, { tool_calls: [{ index: 0, function: { arguments: fragment } }] }),
      ),
      chunk(model, {}, "tool_calls"),
      usageChunk(model, usage),
    ],
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/** An Anthropic messages stream answering `pieces` of text. */
export function anthropicTextReply(
  model: string,
  pieces: string[],
  usage: { input_tokens: number; output_tokens: number },
): FakeReply {
  return {
    named: true,
    chunks: [
      {
        type: "message_start",
        message: {
          id: "msg_fake",
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 0 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      ...pieces.map((text) => ({
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text },
      })),
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
      { type: "message_stop" },
    ],
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function writeReply(response: ServerResponse, reply: FakeReply): Promise<void> {
  if ("raw" in reply) {
    response.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "text/event-stream" });
    response.end(reply.raw);
    return;
  }
  if ("status" in reply) {
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(JSON.stringify(reply.body));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  if (reply.firstChunkDelayMs) {
    response.flushHeaders();
    await sleep(reply.firstChunkDelayMs);
  }
  for (const [index, item] of reply.chunks.entries()) {
    if (reply.cutAfter !== undefined && index >= reply.cutAfter) {
      response.socket?.destroy();
      return;
    }
    const type = reply.named ? `event: ${(item as { type: string }).type}\n` : "";
    response.write(`${type}data: ${JSON.stringify(item)}\n\n`);
    // Separate network writes, so the client really receives a stream of pieces.
    await sleep(reply.pauseMs ?? 2);
    if (response.destroyed) return;
  }
  response.end(reply.named ? undefined : "data: [DONE]\n\n");
}

export async function startFakeOpenAIServer(respond: FakeResponder): Promise<FakeOpenAIServer> {
  const requests: RecordedChatRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const parsed = ChatRequestSchema.safeParse(JSON.parse(await readBody(request)));
      const path = request.url ?? "";
      if (!(path.endsWith("/chat/completions") || path.endsWith("/messages")) || !parsed.success) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `unexpected request to ${request.url}` } }));
        return;
      }
      const recorded: RecordedChatRequest = { ...parsed.data, path };
      if (request.headers.authorization) recorded.authorization = request.headers.authorization;
      requests.push(recorded);
      await writeReply(response, await respond(recorded, requests.length - 1));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
