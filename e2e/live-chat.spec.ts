// Chatting in the live view: replies and messages as markdown (raw HTML stays text), attachments
// uploaded from the composer into the thread's filesystem and downloaded again, Stop during a slow
// reply and chatting on afterwards, a handoff shown in the transcript and the header, and a dual_ai
// transcript naming each side by its label. Scripted models; delays keep replies slow enough to watch.
import fs from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { observableAssetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

/** One ai_human agent whose model answers the given script. */
function chatBundle(agent: string, script: unknown[]) {
  return {
    agents: [{ name: agent, type: "ai_human", sideA: { prompt: `${agent}_chat` } }],
    prompts: [
      {
        name: `${agent}_chat`,
        toolDescription: "Chats.",
        prompt: "Chat.",
        model: "chat_model",
        includeChat: true,
      },
    ],
    models: [{ name: "chat_model", provider: "scripted", model: "s", script }],
    tools: [],
  };
}

async function createProject(request: APIRequestContext, label: string, definitions: unknown) {
  const created = await request.post("/api/projects", {
    data: { name: `${label} ${Date.now()}`, definitions },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function startThread(request: APIRequestContext, projectId: string, agent: string, message?: string) {
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: agent, ...(message ? { message } : {}) },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { threadId: string }).threadId;
}

type ApiMessage = {
  role: string;
  content: string | null;
  attachments: { path: string; name: string; size: number; mimeType: string }[];
};

async function messagesOf(request: APIRequestContext, threadId: string): Promise<ApiMessage[]> {
  const response = await request.get(`/api/threads/${threadId}/messages?limit=1000`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { messages: ApiMessage[] }).messages;
}

const tree = (page: Page) => page.getByRole("tree", { name: "Threads" });
const transcript = (page: Page) => page.getByRole("list", { name: "Messages" });
const rows = (page: Page) => transcript(page).getByTestId("message");
const header = (page: Page) => page.getByRole("region", { name: "Selected thread" }).locator("header");
const composer = (page: Page) => page.getByLabel("Message", { exact: true });
const chips = (page: Page) => page.getByRole("list", { name: "Attachments to send" }).getByRole("listitem");

const MARKDOWN_REPLY = [
  "# Plan",
  "",
  "1. Sketch the **rock**",
  "2. Shade it",
  "",
  "```ts",
  "const rock = { grey: true };",
  "```",
  "",
  "Read [the guide](https://example.com/guide) or [this](javascript:window.__clicked=true).",
  "",
  '<script>window.__injected = true</script> <img src=x onerror="window.__injected = true">',
  "",
  "| size | colour |",
  "|------|--------|",
  "| big  | grey   |",
].join("\n");

test("renders replies and messages as markdown, streaming too, and shows raw HTML as text", async ({
  page,
  request,
}) => {
  const projectId = await createProject(
    request,
    "Markdown",
    chatBundle("writer", [{ text: MARKDOWN_REPLY, delayMs: 3000 }, { text: "> quoted: {{input}}" }]),
  );
  const threadId = await startThread(request, projectId, "writer");
  await page.goto(`/threads/${threadId}`);
  await expect(tree(page).getByRole("treeitem", { name: /^writer/ })).toHaveAttribute("data-status", "idle");

  // The person's own message is markdown too; Enter sends it.
  await composer(page).fill("Plan a **rock** with `care`");
  await composer(page).press("Enter");
  const mine = transcript(page).getByRole("listitem", { name: "User" }).filter({ hasText: "Plan a" });
  await expect(mine.locator("strong")).toHaveText("rock");
  await expect(mine.locator("code")).toHaveText("care");
  await expect(composer(page)).toHaveValue("");

  // While it streams, the reply box already shows the markdown.
  const streaming = page.getByRole("status", { name: "Streaming reply" });
  await expect(streaming.getByRole("heading", { name: "Plan" })).toBeVisible();

  const reply = rows(page).filter({ hasText: "Sketch the" });
  await expect(reply).toHaveCount(1, { timeout: 20_000 });
  await expect(reply.getByRole("heading", { name: "Plan", level: 3 })).toBeVisible();
  await expect(reply.getByRole("listitem")).toHaveText(["Sketch the rock", "Shade it"]);
  await expect(reply.locator("ol strong")).toHaveText("rock");
  await expect(reply.locator("pre code")).toHaveText("const rock = { grey: true };");
  await expect(reply.getByRole("button", { name: "Copy" })).toBeVisible();
  const guide = reply.getByRole("link", { name: "the guide" });
  await expect(guide).toHaveAttribute("href", "https://example.com/guide");
  await expect(guide).toHaveAttribute("target", "_blank");
  await expect(guide).toHaveAttribute("rel", "noopener noreferrer");
  // A javascript: link is text, not a link.
  await expect(reply.getByRole("link", { name: "this" })).toHaveCount(0);
  await expect(reply.getByText("this", { exact: true })).toBeVisible();
  await expect(reply.getByRole("table").getByRole("cell", { name: "grey" })).toBeVisible();
  // Raw HTML shows as the text it is: no script or img element, nothing ran.
  await expect(reply).toContainText("<script>window.__injected = true</script>");
  await expect(reply).toContainText('<img src=x onerror="window.__injected = true">');
  await expect(reply.locator("script, img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();

  // Shift+Enter starts a new line instead of sending; the reply quotes the message.
  await composer(page).fill("Make it **bigger**");
  await composer(page).press("Shift+Enter");
  await composer(page).pressSequentially("with `scale(2)`");
  await expect(composer(page)).toHaveValue("Make it **bigger**\nwith `scale(2)`");
  await page.getByRole("button", { name: "Send" }).click();
  // The reply quotes it: a blockquote, with the quoted markdown rendered inside.
  const quote = rows(page).locator("blockquote");
  await expect(quote).toContainText("quoted: Make it bigger", { timeout: 20_000 });
  await expect(quote.locator("br")).toHaveCount(1);
  await expect(quote.locator("code")).toHaveText("scale(2)");
  await expect(quote.locator("strong")).toHaveText("bigger");
  await page.screenshot({ path: `${ARTIFACTS}/live-chat-markdown.png`, fullPage: true });
});

test("uploads attachments from the composer, downloads the same bytes, and the model sees them", async ({
  page,
  request,
}) => {
  const projectId = await createProject(
    request,
    "Attachments",
    chatBundle("reader", [{ text: "Got: {{input}}" }, { text: "Again: {{input}}" }]),
  );
  const threadId = await startThread(request, projectId, "reader");
  await page.goto(`/threads/${threadId}`);
  await expect(tree(page).getByRole("treeitem", { name: /^reader/ })).toHaveAttribute("data-status", "idle");

  const notes = Buffer.from("line one\nline two\n\u00e9\u00e8 bytes \u0000\u0001\u00ff");
  const input = page.getByLabel("Attach files");
  await input.setInputFiles([
    { name: "notes.txt", mimeType: "text/plain", buffer: notes },
    { name: "extra.txt", mimeType: "text/plain", buffer: Buffer.from("not wanted") },
    // Over the server's 10 MiB upload limit: refused with its 413 message.
    { name: "huge.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(10 * 1024 * 1024 + 1) },
  ]);
  await expect(chips(page)).toHaveCount(3);
  await page.getByRole("button", { name: "Remove extra.txt" }).click();
  await expect(chips(page)).toHaveCount(2);

  await composer(page).fill("see attached");
  await page.getByRole("button", { name: "Send" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Could not upload huge.bin" });
  await expect(alert).toContainText("larger than the limit of 10 MiB");
  await expect(alert).toContainText("TANDEM_MAX_UPLOAD_BYTES");
  // Nothing is lost: the text and both files are still in the composer, and no message was posted.
  await expect(composer(page)).toHaveValue("see attached");
  await expect(chips(page)).toHaveCount(2);
  await expect(chips(page).filter({ hasText: "huge.bin" })).toHaveAttribute("data-state", "failed");
  await expect(chips(page).filter({ hasText: "notes.txt" })).toHaveAttribute("data-state", "uploaded");
  expect(await messagesOf(request, threadId)).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/live-chat-upload-error.png`, fullPage: true });

  await page.getByRole("button", { name: "Remove huge.bin" }).click();
  await page.getByRole("button", { name: "Send" }).click();
  await expect(chips(page)).toHaveCount(0);
  await expect(composer(page)).toHaveValue("");

  const sent = transcript(page).getByRole("listitem", { name: "User" }).filter({ hasText: "see attached" });
  const link = sent.getByRole("list", { name: "Attachments" }).getByRole("link", { name: "notes.txt" });
  await expect(link).toHaveAttribute("href", `/api/threads/${threadId}/fs/uploads/notes.txt`);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe("notes.txt");
  expect(Buffer.compare(await fs.readFile((await download.path())!), notes)).toBe(0);

  // The model is told about the file (the context notes attached paths), and the message refers to it.
  await expect(rows(page).filter({ hasText: "Got: see attached" })).toContainText(
    "Attached files: /uploads/notes.txt",
    { timeout: 20_000 },
  );
  const [userMessage] = await messagesOf(request, threadId);
  expect(userMessage!.attachments).toEqual([
    expect.objectContaining({ path: "/uploads/notes.txt", name: "notes.txt", size: notes.length }),
  ]);

  // Attachments alone, dropped onto the composer: the taken name moves on, the old file is untouched,
  // and an image gets a preview.
  const pixel = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
    "base64",
  );
  const dataTransfer = await page.evaluateHandle((pixelBytes: number[]) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["second notes"], "notes.txt", { type: "text/plain" }));
    transfer.items.add(new File([new Uint8Array(pixelBytes)], "pixel.png", { type: "image/png" }));
    return transfer;
  }, Array.from(pixel));
  await composer(page).dispatchEvent("drop", { dataTransfer });
  await expect(chips(page)).toHaveCount(2);
  await page.getByRole("button", { name: "Send" }).click();
  const second = rows(page).filter({ hasText: "pixel.png" });
  await expect(second.getByRole("link", { name: "notes (2).txt" })).toHaveAttribute(
    "href",
    `/api/threads/${threadId}/fs/uploads/notes%20(2).txt`,
  );
  const preview = second.getByRole("img", { name: "pixel.png" });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
  await expect(rows(page).filter({ hasText: "Again:" })).toContainText("/uploads/notes (2).txt", {
    timeout: 20_000,
  });
  expect(await (await request.get(`/api/threads/${threadId}/fs/uploads/notes.txt`)).body()).toEqual(notes);
  const files = (await (await request.get(`/api/threads/${threadId}/fs?path=/uploads`)).json()) as {
    entries: { path: string }[];
  };
  // Uploaded once each: the retry after the failed upload did not upload notes.txt again.
  expect(files.entries.map((entry) => entry.path).sort()).toEqual([
    "/uploads/notes (2).txt",
    "/uploads/notes.txt",
    "/uploads/pixel.png",
  ]);
  await page.screenshot({ path: `${ARTIFACTS}/live-chat-attachments.png`, fullPage: true });
});

test("a page opened while a reply streams shows it from its first word, each word once, at 1280, 1440 and 1920", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // Forty distinct words streamed over 24 s (one piece every 600 ms): time for three page loads.
  const words = Array.from({ length: 40 }, (_, index) => `w${String(index + 1).padStart(2, "0")}`);
  const reply = words.join(" ");
  const projectId = await createProject(
    request,
    "Join mid-reply",
    chatBundle("narrator", [{ text: reply, delayMs: 24_000 }]),
  );
  const threadId = await startThread(request, projectId, "narrator", "Count.");
  const streaming = page.getByRole("status", { name: "Streaming reply" });
  for (const width of [1280, 1440, 1920]) {
    // Each load joins after pieces went out, and as the tree's only viewer (the page before it has
    // gone): the server's feed for the tree starts then, with those pieces held for its coalescing
    // window as the page gets the text so far. It once sent them twice ("w01 … w11 w01 … w12").
    await page.waitForTimeout(1200);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/threads/${threadId}`);
    await expect(streaming).toContainText("w0");
    for (let sample = 0; sample < 4; sample++) {
      const text = (await streaming.textContent().catch(() => "")) ?? "";
      const shown = text.match(/w\d\d/g) ?? [];
      // From w01 on, in order, no word twice.
      expect(shown, `streamed text: ${text}`).toEqual(words.slice(0, shown.length));
      await page.waitForTimeout(300);
    }
    // The 1440 one is the gallery's 29-live-joined-mid-reply.png (copied to docs/screenshots by hand).
    await page.screenshot({ path: `${ARTIFACTS}/live-chat-streaming-joined-${width}.png` });
  }
  await expect(rows(page).filter({ hasText: "w40" })).toHaveCount(1, { timeout: 40_000 });
  await expect(streaming).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/live-chat-joined-reply-1920.png` });
});

test("Stop ends a slow reply and the thread takes the next message", async ({ page, request }) => {
  const projectId = await createProject(
    request,
    "Stop",
    chatBundle("slowpoke", [{ text: "Slow reply to: {{input}}", delayMs: 6000 }]),
  );
  const threadId = await startThread(request, projectId, "slowpoke");
  await page.goto(`/threads/${threadId}`);
  await expect(tree(page).getByRole("treeitem", { name: /^slowpoke/ })).toHaveAttribute(
    "data-status",
    "idle",
  );

  // A message typed and not sent survives a reload of the page.
  await composer(page).fill("first");
  await page.reload();
  await expect(composer(page)).toHaveValue("first");
  await page.getByRole("button", { name: "Send" }).click();
  const streaming = page.getByRole("status", { name: "Streaming reply" });
  await expect(streaming).toContainText("Slow");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(header(page).getByTestId("status-badge")).toHaveText("stopped");
  await expect(streaming).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Stop" })).toBeDisabled();
  // Sent: the composer is empty (and nothing is kept for a reload).
  await expect(composer(page)).toHaveValue("");
  // The stopped reply is never stored, even after its delay has passed.
  await page.waitForTimeout(6500);
  await expect(rows(page).filter({ hasText: "Slow reply to: first" })).toHaveCount(0);

  await composer(page).fill("second");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("button", { name: "Stop" })).toBeEnabled();
  await expect(rows(page).filter({ hasText: "Slow reply to: second" })).toHaveCount(1, { timeout: 20_000 });
  await expect(header(page).getByTestId("status-badge")).toHaveText("idle");
  const stored = await messagesOf(request, threadId);
  expect(stored.filter((message) => message.role === "assistant").map((message) => message.content)).toEqual([
    "Slow reply to: second",
  ]);
});

test("a handoff shows a marker in the transcript and the new agent in the header", async ({
  page,
  request,
}) => {
  const bundle = {
    agents: [
      { name: "front_desk", title: "Front desk", type: "ai_human", sideA: { prompt: "front_chat" } },
      {
        name: "billing",
        title: "Billing",
        type: "ai_human",
        exposeAsTool: true,
        toolDescription: "Billing questions",
        sideA: { prompt: "billing_chat" },
      },
    ],
    prompts: [
      {
        name: "front_chat",
        toolDescription: "f",
        prompt: "Route the user.",
        model: "front_model",
        includeChat: true,
        tools: [{ name: "billing", initUserMessageProperty: "summary" }],
      },
      {
        name: "billing_chat",
        toolDescription: "b",
        prompt: "You handle billing.",
        model: "billing_model",
        includeChat: true,
      },
    ],
    models: [
      {
        name: "front_model",
        provider: "scripted",
        model: "s",
        script: [
          { toolCalls: [{ name: "billing", args: { summary: "Customer asks: {{input}}" } }], delayMs: 1500 },
        ],
      },
      {
        name: "billing_model",
        provider: "scripted",
        model: "s",
        script: [{ text: "Billing here. You said: {{input}}" }, { text: "Still billing: {{input}}" }],
      },
    ],
    tools: [],
  };
  const projectId = await createProject(request, "Handoff", bundle);
  const threadId = await startThread(request, projectId, "front_desk", "refund please");
  await page.goto(`/threads/${threadId}`);

  const marker = transcript(page).getByRole("listitem", { name: "Handoff" });
  await expect(marker).toContainText("Handed off to Billing (billing)", { timeout: 20_000 });
  await expect(marker).toHaveAttribute("data-handoff-to", "billing");
  await expect(header(page).getByTestId("thread-agent")).toHaveText("billing");
  await expect(header(page)).toContainText("Billing");
  await expect(header(page)).toContainText("after a handoff");
  await expect(tree(page).getByRole("treeitem", { name: /^billing/ })).toHaveCount(1);
  await expect(
    rows(page).filter({ hasText: "Billing here. You said: Customer asks: refund please" }),
  ).toHaveCount(1, { timeout: 20_000 });
  // The marker comes after the call that handed off and before the new agent's first words.
  const order = await rows(page).evaluateAll((items) =>
    items.map((item) => item.getAttribute("aria-label") ?? ""),
  );
  expect(order.indexOf("Handoff")).toBeGreaterThan(0);
  expect(order.indexOf("Handoff")).toBeLessThan(order.lastIndexOf("Assistant"));

  // The new agent is an ai_human agent too: chatting goes on with it, and a reload shows the same.
  await composer(page).fill("and the invoice?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(rows(page).filter({ hasText: "Still billing: and the invoice?" })).toHaveCount(1, {
    timeout: 20_000,
  });
  await page.reload();
  await expect(marker).toContainText("Handed off to Billing (billing)");
  await expect(header(page).getByTestId("thread-agent")).toHaveText("billing");
  await page.screenshot({ path: `${ARTIFACTS}/live-chat-handoff.png`, fullPage: true });
});

test("a dual_ai transcript names each side by its label", async ({ page, request }) => {
  const projectId = await createProject(request, "Sides", observableAssetBundle(0));
  const rootId = await startThread(request, projectId, "orchestrator", "a boulder");
  await page.goto(`/threads/${rootId}`);
  const child = tree(page).getByRole("treeitem", { name: /^asset_subagent/ });
  await expect(child).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await child.click();
  await expect(
    transcript(page).getByRole("listitem", { name: "Worker" }).filter({ hasText: "Draft: a boulder" }),
  ).toHaveCount(1);
  await expect(transcript(page).getByRole("listitem", { name: "Reviewer" })).not.toHaveCount(0);
  await expect(
    transcript(page)
      .getByRole("listitem", { name: "Reviewer" })
      .filter({ hasText: "Tool call · approve_asset" }),
  ).toHaveCount(1);
  // Neither side is called by its role in a dual_ai thread.
  await expect(transcript(page).getByRole("listitem", { name: "Assistant" })).toHaveCount(0);
});
