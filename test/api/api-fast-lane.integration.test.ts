// The API's fast lane (scripts/api-fast-lane.mjs) in the production server `npm start` runs
// (scripts/serve.mjs): a conversation's three requests go straight to their route handlers, and
// every request the lane is not sure of goes to Next.js, answering the same. Which of the two
// answered shows in one header: Next marks the responses of its app routes `vary: rsc, …` (the
// React Server Components request headers); the lane sends the handler's own headers only.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const { projectWith } = threadHelpers(fixture);

const chat = {
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo", includeChat: true }],
  models: [
    {
      name: "demo",
      provider: "scripted",
      model: "s",
      script: [{ text: "answer to {{input}}" }, { text: "answer to {{input}}" }],
    },
  ],
  tools: [],
};

const servedByNext = (response: Response) => (response.headers.get("vary") ?? "").includes("rsc");

function url(path: string) {
  return `${fixture.server.baseUrl}${path}`;
}

function postJson(path: string, body: unknown) {
  return fetch(url(path), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The same JSON sent without a Content-Length (chunked): the lane leaves it to Next. */
function postChunked(path: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  return fetch(url(path), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);
}

/** Reads an event stream until `until` matches the text received so far, then closes it. */
async function readEvents(response: Response, until: RegExp): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no stream");
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + 15_000;
  while (!until.test(text)) {
    if (Date.now() > deadline) throw new Error(`no match for ${until} in:\n${text}`);
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe("the API's fast lane", () => {
  it("serves a conversation's three requests itself: create, message, event stream", async () => {
    const projectId = await projectWith(chat);
    const created = await postJson("/api/threads", {
      project_id: projectId,
      agent_id: "assistant",
      message: "one",
    });
    expect(created.status).toBe(201);
    expect(servedByNext(created)).toBe(false);
    const { threadId } = (await created.json()) as { threadId: string };

    const events = await fetch(url(`/api/threads/${threadId}/events`));
    expect(events.status).toBe(200);
    expect(servedByNext(events)).toBe(false);
    expect(events.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(events.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(await readEvents(events, /"content":"answer to one"/)).toMatch(/^retry: \d+/);

    const posted = await postJson(`/api/threads/${threadId}/messages`, { content: "two" });
    expect(posted.status).toBe(202);
    expect(servedByNext(posted)).toBe(false);
    expect(await posted.json()).toMatchObject({ status: "queued" });

    // A second stream from the start (Last-Event-ID: 0) replays every persisted event once.
    const resumed = await fetch(url(`/api/threads/${threadId}/events`), {
      headers: { "last-event-id": "0" },
    });
    // (Persisted messages only: a live token chunk of the answer may come first, with no id.)
    const replay = await readEvents(resumed, /"content":"answer to two"/);
    expect(replay.match(/"content":"answer to one"/g)?.length).toBe(1);

    // A route outside the lane is Next's, so the marker above means what the test says.
    const read = await fetch(url(`/api/threads/${threadId}`));
    expect(read.status).toBe(200);
    expect(servedByNext(read)).toBe(true);
  });

  it("leaves a body without a Content-Length to Next, which answers the same", async () => {
    const projectId = await projectWith(chat);
    const body = JSON.stringify({ project_id: projectId, agent_id: "assistant" });
    const chunked = await postChunked("/api/threads", body);
    expect(chunked.status).toBe(201);
    expect(servedByNext(chunked)).toBe(true);

    // The same bad body both ways: one error, word for word.
    const [lane, next] = await Promise.all([
      fetch(url("/api/threads"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"project_id":',
      }),
      postChunked("/api/threads", '{"project_id":'),
    ]);
    expect([servedByNext(lane), servedByNext(next)]).toEqual([false, true]);
    expect([lane.status, next.status]).toEqual([400, 400]);
    expect(await lane.json()).toEqual(await next.json());
  });

  it("answers errors as the routes do: unknown thread, bad Last-Event-ID, oversized body", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    const message = await postJson(`/api/threads/${missing}/messages`, { content: "hello" });
    expect(servedByNext(message)).toBe(false);
    expect(message.status).toBe(404);
    expect(await message.json()).toMatchObject({ code: "thread_not_found" });

    const events = await fetch(url(`/api/threads/${missing}/events`), { headers: { "last-event-id": "x" } });
    expect(servedByNext(events)).toBe(false);
    expect(events.status).toBe(400);
    expect(await events.json()).toMatchObject({ code: "invalid_request" });

    // Over the lane's own buffer (1 MiB) and under the JSON limit (5 MiB): Next streams it to the route.
    const projectId = await projectWith(chat);
    const large = await postJson("/api/threads", {
      project_id: projectId,
      agent_id: "assistant",
      message: "x".repeat(1_200_000),
    });
    expect(servedByNext(large)).toBe(true);
    expect(large.status).toBe(201);
    // Over the JSON limit: refused from its declared length, whoever serves it.
    const tooLarge = await fetch(url("/api/threads"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(6 * 1024 * 1024),
    });
    expect(tooLarge.status).toBe(413);
  });

  it("leaves a path with a trailing slash or an encoded id to Next", async () => {
    const slash = await fetch(url("/api/threads/"), { method: "POST", body: "{}", redirect: "manual" });
    expect(slash.status).toBe(308);
    const encoded = await postJson("/api/threads/%ZZ/messages", { content: "x" });
    expect(encoded.status).toBe(400);
    expect(await encoded.json()).toMatchObject({ code: "malformed_url" });
  });

  it("answers a request the Fetch API cannot represent with a 400, never a 500", async () => {
    // A Host header with a space: Node's parser takes it, a URL cannot hold it.
    const { port } = new URL(fixture.server.baseUrl);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.end(
          "POST /api/threads HTTP/1.1\r\nHost: bad host\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
        );
      });
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString();
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain('"code":"invalid_request"');
  });
});
