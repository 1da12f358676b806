// The real model-provider path end to end: a thread whose model is `openai-compatible`, served by a
// local OpenAI-compatible HTTP server started here (streaming text and a streamed tool call). The
// API key comes from the server's environment by name and never shows up in logs or messages.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  startFakeOpenAIServer,
  textReply,
  toolCallReply,
} from "../support/fake-openai-server";
import { testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";

const SECRET = "sk-test-never-show-me-4711";
let provider: FakeOpenAIServer;
const fixture = testServerForFile({
  LOCAL_LLM_KEY: SECRET,
  WEATHER_TOKEN: "weather-secret-99",
  TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: "1",
});

beforeAll(async () => {
  provider = await startFakeOpenAIServer((_request, index) =>
    index === 0
      ? toolCallReply(
          "local-model",
          {
            id: "call_abc",
            name: "save_note",
            argumentFragments: ['{"path":"/n', 'ote.txt","content":"hi"}'],
          },
          { prompt_tokens: 40, completion_tokens: 12 },
        )
      : textReply("local-model", ["Saved ", "your ", "note."], { prompt_tokens: 60, completion_tokens: 3 }),
  );
});

afterAll(async () => {
  await provider?.close();
});

it("runs a conversation through an OpenAI-compatible provider with streamed tool calls", async () => {
  const definitions = {
    agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "c",
        prompt: "You keep notes.",
        model: "local",
        includeChat: true,
        tools: ["save_note"],
      },
    ],
    models: [
      {
        name: "local",
        provider: "openai-compatible",
        model: "local-model",
        baseURL: provider.baseURL,
        apiKeyEnv: "LOCAL_LLM_KEY",
        inputPrice: 1,
        outputPrice: 4,
      },
    ],
    tools: [{ name: "save_note", description: "Saves a note", kind: "builtin", builtin: "fs_write" }],
  };
  const project = await requestJson<{ id: string }>(fixture.server.baseUrl, "POST", "/api/projects", {
    name: "local",
    definitions,
  });
  expect(project.status).toBe(201);
  const created = await requestJson<{ threadId: string }>(fixture.server.baseUrl, "POST", "/api/threads", {
    project_id: project.body.id,
    agent_id: "assistant",
    message: "remember hi",
  });
  const threadId = created.body.threadId;
  let status = "";
  for (let attempt = 0; attempt < 200 && status !== "idle"; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (
      await requestJson<{ thread: { status: string } }>(
        fixture.server.baseUrl,
        "GET",
        `/api/threads/${threadId}`,
      )
    ).body.thread.status;
  }
  expect(status).toBe("idle");

  const { body } = await requestJson<{
    messages: { role: string; content: string; name: string | null; tool_calls: string | null }[];
  }>(fixture.server.baseUrl, "GET", `/api/threads/${threadId}/messages`);
  expect(body.messages.map((message) => [message.role, message.name])).toEqual([
    ["user", null],
    ["assistant", null],
    ["tool", "save_note"],
    ["assistant", null],
  ]);
  expect(JSON.parse(body.messages[1]!.tool_calls!)).toEqual([
    {
      id: "call_abc",
      type: "function",
      function: { name: "save_note", arguments: '{"path":"/note.txt","content":"hi"}' },
    },
  ]);
  expect(body.messages[2]!.content).toBe("Wrote 2 bytes to /note.txt");
  expect(body.messages[3]!.content).toBe("Saved your note.");

  // What the provider received: the key by name from the environment, tools with their schema,
  // and on the second call the tool result tied to its call id.
  expect(provider.requests).toHaveLength(2);
  expect(provider.requests[0]!.authorization).toBe(`Bearer ${SECRET}`);
  expect(JSON.stringify(provider.requests[0]!.tools)).toContain('"save_note"');
  const second = provider.requests[1]!.messages as {
    role: string;
    tool_call_id?: string;
    content?: unknown;
  }[];
  expect(second[0]).toMatchObject({ role: "system", content: "You keep notes." });
  expect(second.find((message) => message.role === "tool")).toMatchObject({ tool_call_id: "call_abc" });

  const thread = await requestJson<{
    thread: { usage: { input_tokens: number; output_tokens: number; cost_usd: number } };
  }>(fixture.server.baseUrl, "GET", `/api/threads/${threadId}`);
  expect(thread.body.thread.usage.input_tokens).toBe(100);
  expect(thread.body.thread.usage.output_tokens).toBe(15);
  expect(thread.body.thread.usage.cost_usd).toBeCloseTo((100 * 1 + 15 * 4) / 1_000_000, 12);

  const logs = await requestJson(fixture.server.baseUrl, "GET", `/api/threads/${threadId}/logs`);
  const everything = JSON.stringify([logs.body, body]) + fixture.server.output();
  expect(everything).not.toContain(SECRET);
});

it("calls an HTTP tool with a header secret from the environment and feeds the answer back", async () => {
  const received: { url: string; authorization: string | undefined }[] = [];
  const weather = createServer((request, response) => {
    received.push({ url: request.url ?? "", authorization: request.headers.authorization });
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ city: "Oslo", celsius: 4 }));
  });
  await new Promise<void>((resolve) => weather.listen(0, "127.0.0.1", resolve));
  const port = (weather.address() as AddressInfo).port;
  try {
    const definitions = {
      agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
      prompts: [
        {
          name: "assistant_chat",
          toolDescription: "c",
          prompt: "Weather.",
          model: "demo",
          includeChat: true,
          tools: ["weather"],
        },
      ],
      models: [
        {
          name: "demo",
          provider: "scripted",
          model: "s",
          script: [
            { toolCalls: [{ name: "weather", args: { city: "Oslo", units: "metric" } }] },
            { text: "It is {{tool_result}}" },
          ],
        },
      ],
      tools: [
        {
          name: "weather",
          description: "Current weather",
          kind: "http",
          method: "GET",
          url: `http://127.0.0.1:${port}/weather/{city}`,
          headers: { Authorization: { env: "WEATHER_TOKEN", prefix: "Token " } },
          args: {
            type: "object",
            properties: { city: { type: "string" }, units: { type: "string" } },
            required: ["city"],
          },
        },
      ],
    };
    const project = await requestJson<{ id: string }>(fixture.server.baseUrl, "POST", "/api/projects", {
      name: "http",
      definitions,
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    const created = await requestJson<{ threadId: string }>(fixture.server.baseUrl, "POST", "/api/threads", {
      project_id: project.body.id,
      agent_id: "assistant",
      message: "weather?",
    });
    let status = "";
    for (let attempt = 0; attempt < 200 && status !== "idle"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (
        await requestJson<{ thread: { status: string } }>(
          fixture.server.baseUrl,
          "GET",
          `/api/threads/${created.body.threadId}`,
        )
      ).body.thread.status;
    }
    expect(received).toEqual([
      { url: "/weather/Oslo?units=metric", authorization: "Token weather-secret-99" },
    ]);
    const { body } = await requestJson<{ messages: { role: string; content: string }[] }>(
      fixture.server.baseUrl,
      "GET",
      `/api/threads/${created.body.threadId}/messages`,
    );
    expect(body.messages.at(-1)?.content).toBe('It is {"city":"Oslo","celsius":4}');
    const logs = await requestJson(
      fixture.server.baseUrl,
      "GET",
      `/api/threads/${created.body.threadId}/logs`,
    );
    expect(JSON.stringify([logs.body, body])).not.toContain("weather-secret-99");
  } finally {
    await new Promise((resolve) => weather.close(resolve));
  }
});
