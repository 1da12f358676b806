// Secrets never leave the server: a model's API key and an HTTP tool's header secret, both read from
// the environment by name, are used for real (a local OpenAI-compatible provider and a local HTTP
// service that both echo what they were sent), and then every surface is searched for them — the
// thread, its messages (silent ones too), model-call logs, the event stream, the project export in
// all three formats, the filesystem and everything the server printed.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { unzipProjectFiles } from "../../lib/codegen/zip";
import { type FakeOpenAIServer, startFakeOpenAIServer, toolCallReply } from "../support/fake-openai-server";
import { testServerForFile } from "../support/fixture";
import { connectSse } from "../support/sse";
import { threadHelpers } from "../support/thread-helpers";

const MODEL_KEY = "sk-model-key-never-leak-31337";
const TOOL_TOKEN = "tool-token-never-leak-8086";
let provider: FakeOpenAIServer;
let echo: ReturnType<typeof createServer>;
let echoPort = 0;

const fixture = testServerForFile({
  SECRET_MODEL_KEY: MODEL_KEY,
  SECRET_TOOL_TOKEN: TOOL_TOKEN,
  // The echo service runs on this machine; allow exactly its address.
  TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "127.0.0.1",
});
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

beforeAll(async () => {
  // A careless provider: after the first step it rejects the key and quotes it back.
  provider = await startFakeOpenAIServer((request, index) =>
    index === 0
      ? toolCallReply(
          "m",
          { id: "call_1", name: "lookup", argumentFragments: ['{"q":"status"}'] },
          { prompt_tokens: 10, completion_tokens: 5 },
        )
      : { status: 401, body: { error: { message: `Incorrect API key provided: ${request.authorization}` } } },
  );
  // A careless service: it quotes the credentials it received.
  echo = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end(`you sent ${request.headers.authorization} for ${request.url}`);
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  echoPort = (echo.address() as AddressInfo).port;
});

afterAll(async () => {
  await provider?.close();
  await new Promise((resolve) => echo?.close(resolve));
});

it("keeps the model key and the tool secret out of every stored, streamed, exported and logged surface", async () => {
  const projectId = await projectWith({
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [
      {
        name: "chat",
        toolDescription: "c",
        prompt: "Look things up.",
        model: "remote",
        includeChat: true,
        tools: ["lookup"],
      },
    ],
    models: [
      {
        name: "remote",
        provider: "openai-compatible",
        model: "m",
        baseURL: provider.baseURL,
        apiKeyEnv: "SECRET_MODEL_KEY",
      },
    ],
    tools: [
      {
        name: "lookup",
        description: "Looks something up",
        kind: "http",
        method: "GET",
        url: `http://127.0.0.1:${echoPort}/lookup`,
        headers: { Authorization: { env: "SECRET_TOOL_TOKEN", prefix: "Token " } },
        args: { type: "object", properties: { q: { type: "string" } } },
      },
    ],
  });
  const threadId = await startThread(projectId, "assistant", "what is the status?");
  const events = await connectSse(`${fixture.server.baseUrl}/api/threads/${threadId}/events`);
  const thread = await waitFor(threadId, ["failed"], 30_000);
  await events.waitFor((frame) => frame.event === "thread" && frame.data.includes('"failed"'));
  events.close();

  // The secrets really were used (so the search below means something) …
  expect(provider.requests[0]?.authorization).toBe(`Bearer ${MODEL_KEY}`);
  // … and the echoes were cut out before anything stored them.
  const messages = await fixture.api<{ messages: { role: string; content: string | null }[] }>(
    "GET",
    `/api/threads/${threadId}/messages?includeSilent=true`,
  );
  expect(messages.body.messages.find((message) => message.role === "tool")?.content).toContain(
    "you sent Token [redacted] for /lookup",
  );
  expect(thread.failure).toContain("Incorrect API key provided: Bearer [redacted]");

  const surfaces: Record<string, string> = {
    thread: JSON.stringify(thread),
    messages: JSON.stringify(messages.body),
    events: JSON.stringify(events.frames),
  };
  for (const path of [
    `/api/threads/${threadId}`,
    `/api/threads/${threadId}/logs`,
    `/api/threads/${threadId}/tree`,
    `/api/threads/${threadId}/fs`,
    `/api/projects/${projectId}`,
  ]) {
    surfaces[path] = JSON.stringify((await fixture.api("GET", path)).body);
  }
  for (const format of ["json", "ts"]) {
    const response = await fetch(
      `${fixture.server.baseUrl}/api/projects/${projectId}/export?format=${format}`,
    );
    expect(response.status).toBe(200);
    surfaces[`export ${format}`] = await response.text();
  }
  const zip = await fetch(`${fixture.server.baseUrl}/api/projects/${projectId}/export?format=zip`);
  surfaces["export zip"] = JSON.stringify(await unzipProjectFiles(new Uint8Array(await zip.arrayBuffer())));
  surfaces["server output"] = fixture.server.output();

  expect(surfaces["export ts"]).toContain("SECRET_MODEL_KEY");
  for (const [surface, text] of Object.entries(surfaces)) {
    expect(text, surface).not.toContain(MODEL_KEY);
    expect(text, surface).not.toContain(TOOL_TOKEN);
  }
  // What the model saw on its second call (the tool result) had the tool secret cut out as well.
  expect(JSON.stringify(provider.requests.slice(1))).not.toContain(TOOL_TOKEN);
});
