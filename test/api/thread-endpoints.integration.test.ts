// Thread endpoints (spec Threads §endpoints) over real HTTP: the sample files in
// test/extensions/threads/ served at /api/threads/:id/endpoints/<path> by a server that requires the
// API token — method suffixes, path parameters, the ThreadState they get (execution null), and the
// 401/404/405/413/500 answers around them.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ServerFixture, testServerForFile } from "../support/fixture";
import { requestJson } from "../support/http";
import { threadHelpers } from "../support/thread-helpers";

const TOKEN = "endpoint-token-5b2e";
const authorised = { authorization: `Bearer ${TOKEN}` };
const UPLOAD_LIMIT = 64 * 1024;

const server = testServerForFile({
  TANDEM_EXTENSIONS_DIR: path.resolve(__dirname, "../extensions"),
  TANDEM_API_TOKEN: TOKEN,
  TANDEM_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT),
});
/** The same server, every request with the token. */
const fixture: ServerFixture = {
  get server() {
    return server.server;
  },
  get databaseUrl() {
    return server.databaseUrl;
  },
  api: (method, url, body) => requestJson(server.server.baseUrl, method, url, body, { headers: authorised }),
};
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

type ErrorBody = { error: string; code: string; allow?: string[] };

const chat = {
  agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
  prompts: [
    {
      name: "assistant_chat",
      toolDescription: "Chats",
      prompt: "You are helpful.",
      model: "demo",
      includeChat: true,
      tools: [],
    },
  ],
  models: [{ name: "demo", provider: "scripted", model: "scripted", script: [{ text: "hi there" }] }],
};

async function idleThread(): Promise<string> {
  const threadId = await startThread(await projectWith(chat), "assistant", "hello");
  await waitFor(threadId, ["idle"]);
  return threadId;
}

const endpoint = (threadId: string, rest = "") => `/api/threads/${threadId}/endpoints${rest}`;

describe("thread endpoints", () => {
  it("serves a file without a suffix on GET, with the thread's state (execution null) and the request", async () => {
    const threadId = await idleThread();
    const status = await api("GET", endpoint(threadId, "/status?q=find%20me"));
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      threadId,
      agentId: "assistant",
      method: "GET",
      query: "find me",
      messageCount: 2,
      contents: ["hello", "hi there"],
      executionIsNull: true,
      params: {},
    });
    const root = await api("GET", endpoint(threadId));
    expect(root.status).toBe(200);
    expect(root.body).toEqual({ root: true, threadId });
  });

  it("serves a .post file on POST; the handler reads the body and injects a message into the thread", async () => {
    const threadId = await idleThread();
    const archived = await api<{ messageId: string; executionIsNull: boolean }>(
      "POST",
      endpoint(threadId, "/archive"),
      { note: "resolved" },
    );
    expect(archived.status).toBe(201);
    expect(archived.body.executionIsNull).toBe(true);
    const messages = await messagesOf(threadId);
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "hello"],
      ["assistant", "hi there"],
      ["assistant", "archived: resolved"],
    ]);
    expect(messages.at(-1)).toMatchObject({ id: archived.body.messageId, metadata: { archived: true } });
    // Injected, not queued: no run started.
    expect((await waitFor(threadId, ["idle"])).status).toBe("idle");
  });

  it("passes path parameters: [name] segments (decoded), static before dynamic, and [*] catch-alls", async () => {
    const threadId = await idleThread();
    expect((await api("GET", endpoint(threadId, "/orders/A-7"))).body).toEqual({
      route: "order",
      params: { orderId: "A-7" },
    });
    expect((await api("GET", endpoint(threadId, "/orders/A%2F7%20x"))).body).toEqual({
      route: "order",
      params: { orderId: "A/7 x" },
    });
    expect((await api("GET", endpoint(threadId, "/orders/recent"))).body).toEqual({
      route: "recent",
      params: {},
    });
    expect((await api("GET", endpoint(threadId, "/files/docs/guide/intro.md"))).body).toEqual({
      route: "files",
      params: { "*": "docs/guide/intro.md" },
    });
    const deleted = await api("DELETE", endpoint(threadId, "/orders/A-7"));
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get("x-deleted")).toBe("A-7");
  });

  it("answers 404 for an unknown or malformed thread id and for a path no file serves", async () => {
    const threadId = await idleThread();
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-thread"]) {
      const missing = await api<ErrorBody>("GET", endpoint(id, "/status"));
      expect(missing.status, id).toBe(404);
      expect(missing.body).toEqual({ error: `Thread not found: ${id}`, code: "thread_not_found" });
    }
    const unknown = await api<ErrorBody>("GET", endpoint(threadId, "/nothing/here"));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "endpoint_not_found", path: "/nothing/here" });
    expect(unknown.body.error).toMatch(/No thread endpoint answers \/nothing\/here/);
    expect((await api<ErrorBody>("GET", endpoint(threadId, "/status/extra"))).status).toBe(404);
  });

  it("answers 405 with Allow for a path that only other methods serve", async () => {
    const threadId = await idleThread();
    const wrong = await api<ErrorBody>("GET", endpoint(threadId, "/archive"));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(wrong.body).toMatchObject({ code: "method_not_allowed", allow: ["POST"] });
    const patch = await api<ErrorBody>("PATCH", endpoint(threadId, "/orders/A-7"), {});
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("GET, DELETE");
  });

  it("answers a bare 500 when the handler throws or returns no Response, and logs the reason", async () => {
    const threadId = await idleThread();
    const thrown = await fetch(`${fixture.server.baseUrl}${endpoint(threadId, "/broken/throws")}`, {
      headers: authorised,
    });
    expect(thrown.status).toBe(500);
    const text = await thrown.text();
    expect(JSON.parse(text)).toEqual({ error: "Endpoint failed", code: "endpoint_failed" });
    expect(text).not.toMatch(/ledger|\/srv|\bat\s/);
    const notResponse = await api<ErrorBody>("GET", endpoint(threadId, "/broken/not-a-response"));
    expect(notResponse.status).toBe(500);
    expect(notResponse.body).toEqual({ error: "Endpoint failed", code: "endpoint_failed" });
    const deadline = Date.now() + 5_000;
    while (!fixture.server.output().includes("must return a Response") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const log = fixture.server.output();
    expect(log).toMatch(
      /thread endpoint GET \/broken\/throws \(test\/extensions\/threads\/broken\/throws\.ts\) on thread [0-9a-f-]{36} failed: ledger unreachable at \/srv\/internal\/ledger\.sock/,
    );
    expect(log).toMatch(
      /GET \/broken\/not-a-response .* must return a Response, but returned an object \(Object\)/,
    );
  });

  it("requires the API token like every route, before anything else", async () => {
    const threadId = await idleThread();
    for (const headers of [{}, { authorization: "Bearer wrong" }] as Record<string, string>[]) {
      for (const [method, rest] of [
        ["GET", "/status"],
        ["POST", "/archive"],
        ["GET", "/nothing"],
      ] as const) {
        const refused = await requestJson<ErrorBody>(
          fixture.server.baseUrl,
          method,
          endpoint(threadId, rest),
          method === "POST" ? { note: "sneaky" } : undefined,
          { headers },
        );
        expect(refused.status, `${method} ${rest}`).toBe(401);
        expect(refused.body.code).toBe("unauthorized");
      }
    }
    // Nothing reached the thread.
    expect((await messagesOf(threadId)).map((message) => message.content)).toEqual(["hello", "hi there"]);
  });

  it("refuses a body above the upload limit with 413 before the handler runs", async () => {
    const threadId = await idleThread();
    const big = await requestJson<ErrorBody & { limit_bytes: number }>(
      fixture.server.baseUrl,
      "POST",
      endpoint(threadId, "/archive"),
      undefined,
      { rawBody: JSON.stringify({ note: "x".repeat(UPLOAD_LIMIT) }), headers: authorised },
    );
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: "payload_too_large", limit_bytes: UPLOAD_LIMIT });
    expect(await messagesOf(threadId)).toHaveLength(2);
  });
});
