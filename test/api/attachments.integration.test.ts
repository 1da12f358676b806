// Attachments through the thread routes of API.md: uploads on thread creation and on messages land
// in the thread's filesystem under /attachments/, path refs name files already there, and bad
// input is a 400 that stores nothing.
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";

type AttachmentRef = {
  id: string;
  type: string;
  path: string;
  name: string;
  mimeType: string;
  size: number;
  width?: number;
  height?: number;
  description?: string;
};
type Message = { id: string; role: string; content: string | null; attachments: AttachmentRef[] };

const fixture = testServerForFile();
const api = fixture.api;

// A 1×1 transparent PNG.
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function chatBundle(script: unknown[]) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
    prompts: [
      {
        name: "assistant_chat",
        toolDescription: "Chats",
        prompt: "You look at files.",
        model: "demo",
        includeChat: true,
      },
    ],
    models: [{ name: "demo", provider: "scripted", model: "scripted", script }],
    tools: [],
  };
}

async function newProject(script: unknown[] = [{ text: "Seen." }, { text: "Seen again." }]): Promise<string> {
  const created = await api<{ id: string }>("POST", "/api/projects", {
    name: `attachments ${Date.now()}`,
    definitions: chatBundle(script),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function waitIdle(threadId: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let status = "";
  while (Date.now() < deadline) {
    status = (await api<{ thread: { status: string } }>("GET", `/api/threads/${threadId}`)).body.thread
      .status;
    if (status === "idle") return;
    if (["failed", "stopped", "terminated"].includes(status)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`thread ${threadId} did not become idle (last status: ${status})`);
}

async function messagesOf(threadId: string): Promise<Message[]> {
  const response = await api<{ messages: Message[] }>("GET", `/api/threads/${threadId}/messages`);
  expect(response.status).toBe(200);
  return response.body.messages;
}

async function filesOf(threadId: string, directory = "/"): Promise<string[]> {
  const response = await api<{ entries: { path: string }[] }>(
    "GET",
    `/api/threads/${threadId}/fs?path=${encodeURIComponent(directory)}`,
  );
  expect(response.status).toBe(200);
  return response.body.entries.map((entry) => entry.path);
}

async function threadCount(projectId: string): Promise<number> {
  return (await api<{ total: number }>("GET", `/api/threads?project_id=${projectId}`)).body.total;
}

describe("attachments on thread creation", () => {
  it("stores an upload with the first message and serves its bytes from the thread filesystem", async () => {
    const projectId = await newProject([{ text: "Got: {{input}}" }]);
    const created = await api<{ threadId: string }>("POST", "/api/threads", {
      project_id: projectId,
      agent_id: "assistant",
      initial_messages: [{ role: "assistant", content: "Send me a picture." }],
      message: "Look at this",
      attachments: [{ name: "pixel.png", mimeType: "image/png", data: PNG_BASE64, width: 1, height: 1 }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const threadId = created.body.threadId;
    await waitIdle(threadId);

    const [greeting, first, answer] = await messagesOf(threadId);
    expect(greeting?.attachments).toEqual([]);
    expect(first?.content).toBe("Look at this");
    expect(first?.attachments).toEqual([
      {
        id: expect.stringMatching(UUID),
        type: "file",
        path: "/attachments/pixel.png",
        name: "pixel.png",
        mimeType: "image/png",
        size: Buffer.from(PNG_BASE64, "base64").byteLength,
        width: 1,
        height: 1,
      },
    ]);
    expect(answer?.content).toContain("Got: Look at this");

    const file = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs/attachments/pixel.png`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from(PNG_BASE64, "base64"));

    // The model saw the image itself: a recent image goes to the model as an image part with its data
    // (loadContextImages; the step reads the files only when its history has an image: model-turn.ts).
    const logs = await api<{ model_calls: { request: unknown }[] }>("GET", `/api/threads/${threadId}/logs`);
    const request = JSON.stringify(logs.body.model_calls[0]?.request);
    expect(request).toContain(PNG_BASE64);
  });

  it("refuses attachments without a message, and bad attachments, creating no thread", async () => {
    const projectId = await newProject();
    const base = { project_id: projectId, agent_id: "assistant" };
    const withoutMessage = await api<{ code: string; error: string }>("POST", "/api/threads", {
      ...base,
      attachments: [{ name: "a.txt", mimeType: "text/plain", data: "aGk=" }],
    });
    expect(withoutMessage.status).toBe(400);
    expect(withoutMessage.body.code).toBe("attachments_need_message");

    const badData = await api<{ code: string; error: string }>("POST", "/api/threads", {
      ...base,
      message: "hi",
      attachments: [
        { name: "a.txt", mimeType: "text/plain", data: "aGk=" },
        { name: "b.txt", mimeType: "text/plain", data: "not base64!" },
      ],
    });
    expect(badData.status).toBe(400);
    expect(badData.body.error).toContain("attachments[1].data");
    expect(badData.body.error).toContain("not valid base64");

    // A new thread's filesystem is empty: a path cannot name anything yet.
    const path = await api<{ code: string; error: string }>("POST", "/api/threads", {
      ...base,
      message: "hi",
      attachments: [{ name: "a.txt", mimeType: "text/plain", data: "aGk=" }, "/docs/plan.md"],
    });
    expect(path.status).toBe(400);
    expect(path.body.code).toBe("attachment_not_found");
    expect(path.body.error).toContain("attachments[1]");

    expect(await threadCount(projectId)).toBe(0);
  });
});

describe("attachments on posted messages", () => {
  it("resolves paths of files written earlier and never replaces an existing attachment", async () => {
    const projectId = await newProject();
    const created = await api<{ threadId: string }>("POST", "/api/threads", {
      project_id: projectId,
      agent_id: "assistant",
    });
    const threadId = created.body.threadId;
    const put = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs/docs/plan.md`, {
      method: "PUT",
      headers: { "content-type": "text/markdown" },
      body: "# Plan",
    });
    expect(put.status).toBe(201);
    await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs/attachments/notes.txt`, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body: "older notes",
    });

    const posted = await api<{ status: string; messageId: string }>(
      "POST",
      `/api/threads/${threadId}/messages`,
      {
        content: "Read these",
        attachments: [
          "/docs/plan.md",
          { path: "docs/./plan.md", description: "the plan" },
          { name: "notes.txt", mimeType: "text/plain", data: Buffer.from("new notes").toString("base64") },
        ],
      },
    );
    expect(posted.status, JSON.stringify(posted.body)).toBe(202);
    await waitIdle(threadId);

    const message = (await messagesOf(threadId)).find((candidate) => candidate.id === posted.body.messageId);
    expect(message?.attachments.map(({ id: _id, ...ref }) => ref)).toEqual([
      { type: "file", path: "/docs/plan.md", name: "plan.md", mimeType: "text/markdown", size: 6 },
      {
        type: "file",
        path: "/docs/plan.md",
        name: "plan.md",
        mimeType: "text/markdown",
        size: 6,
        description: "the plan",
      },
      {
        type: "file",
        path: "/attachments/notes (2).txt",
        name: "notes.txt",
        mimeType: "text/plain",
        size: 9,
      },
    ]);
    const older = await fetch(`${fixture.server.baseUrl}/api/threads/${threadId}/fs/attachments/notes.txt`);
    expect(await older.text()).toBe("older notes");
    const newer = await fetch(
      `${fixture.server.baseUrl}/api/threads/${threadId}/fs/attachments/${encodeURIComponent("notes (2).txt")}`,
    );
    expect(await newer.text()).toBe("new notes");

    // Attachments alone make a message.
    const onlyFiles = await api("POST", `/api/threads/${threadId}/messages`, {
      content: "",
      attachments: ["/docs/plan.md"],
    });
    expect(onlyFiles.status).toBe(202);
    await waitIdle(threadId);
  });

  it("answers 400 for bad base64, unknown paths, traversal and too many attachments, storing nothing", async () => {
    const projectId = await newProject();
    const threadId = (
      await api<{ threadId: string }>("POST", "/api/threads", {
        project_id: projectId,
        agent_id: "assistant",
      })
    ).body.threadId;
    const upload = { name: "ok.txt", mimeType: "text/plain", data: "aGk=" };
    const cases: [unknown[], string, RegExp][] = [
      [
        [upload, { ...upload, data: "%%%" }],
        "invalid_request",
        /attachments\[1\]\.data: is not valid base64/,
      ],
      [
        [upload, "/missing.png"],
        "attachment_not_found",
        /attachments\[1\]: there is no file at \/missing\.png/,
      ],
      [[upload, "../x"], "invalid_request", /attachments\[1\].*leaves the thread filesystem/],
      [[upload, { path: "/a/../../x" }], "invalid_request", /attachments\[1\]\.path/],
      [[upload, { ...upload, name: "../x.txt" }], "invalid_request", /attachments\[1\]\.name/],
      [[upload, { ...upload, mimeType: "text" }], "invalid_request", /attachments\[1\]\.mimeType/],
      [[upload, 42], "invalid_request", /attachments\[1\]: must be a file path/],
      [Array.from({ length: 21 }, () => upload), "invalid_request", /attachments: at most 20 attachments/],
    ];
    for (const [attachments, code, error] of cases) {
      const response = await api<{ code: string; error: string }>(
        "POST",
        `/api/threads/${threadId}/messages`,
        {
          content: "hi",
          attachments,
        },
      );
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.code).toBe(code);
      expect(response.body.error).toMatch(error);
    }
    const tooLarge = await api("POST", `/api/threads/${threadId}/messages`, {
      content: "hi",
      attachments: [{ ...upload, data: "A".repeat(6 * 1024 * 1024) }],
    });
    expect(tooLarge.status).toBe(413);

    expect(await filesOf(threadId)).toEqual([]);
    expect(await messagesOf(threadId)).toEqual([]);
    const thread = await api<{ thread: { status: string } }>("GET", `/api/threads/${threadId}`);
    expect(thread.body.thread.status).toBe("idle");
  });
});
