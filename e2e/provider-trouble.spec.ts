// A rate-limited provider in the live view (issue 47): a thread whose model is an OpenAI-compatible
// server started by this spec, which answers its first call HTTP 429 with `retry-after: 30`. The
// transcript says "Rate limited by openai-compatible at 127.0.0.1:<port>, retrying in N s" (not a
// spinner), legible and axe-clean at each width; Stop ends the wait at once, with no failure; the next
// message is answered once.
import fs from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";
import { type FakeOpenAIServer, startFakeOpenAIServer, textReply } from "../test/support/fake-openai-server";

const ARTIFACTS = "e2e-artifacts";
let provider: FakeOpenAIServer;

test.beforeAll(async () => {
  provider = await startFakeOpenAIServer((body, index) =>
    index === 0
      ? {
          status: 429,
          body: { error: { message: "Rate limit reached for requests" } },
          headers: { "retry-after": "30" },
        }
      : textReply(body.model, ["Answered ", "once."], { prompt_tokens: 3, completion_tokens: 2 }),
  );
  await fs.mkdir(ARTIFACTS, { recursive: true });
});

test.afterAll(async () => {
  await provider?.close();
});

test.setTimeout(120_000);

test("a rate-limited call says so in the transcript, counts down, and Stop ends the wait", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/projects", {
    data: {
      name: `Rate limited ${Date.now()}`,
      definitions: {
        agents: [{ name: "patient", type: "ai_human", sideA: { prompt: "patient_chat" } }],
        prompts: [
          {
            name: "patient_chat",
            toolDescription: "Chats.",
            prompt: "Chat.",
            model: "busy",
            includeChat: true,
          },
        ],
        models: [
          { name: "busy", provider: "openai-compatible", model: "busy-model", baseURL: provider.baseURL },
        ],
        tools: [],
      },
    },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const thread = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "patient", message: "Are you there?" },
  });
  expect(thread.status()).toBe(201);
  const threadId = ((await thread.json()) as { threadId: string }).threadId;

  await page.goto(`/threads/${threadId}`);
  const host = new URL(provider.baseURL).host;
  const notice = page.getByRole("status", { name: "Waiting on the model provider" });
  await expect(notice).toHaveText(
    new RegExp(`^Rate limited by openai-compatible at ${host}, retrying in \\d+ s$`),
    {
      timeout: 15_000,
    },
  );
  const first = Number((await notice.textContent())?.match(/in (\d+) s/)?.[1]);
  expect(first).toBeGreaterThan(20);
  expect(first).toBeLessThanOrEqual(37);
  await atEachWidth(page, async (width) => {
    await expect(notice).toBeVisible();
    const box = (await notice.boundingBox())!;
    const transcriptBox = (await page.getByRole("region", { name: "Transcript" }).boundingBox())!;
    // Inside the transcript, whole (nothing cut at the right edge).
    expect(box.x).toBeGreaterThanOrEqual(transcriptBox.x);
    expect(box.x + box.width).toBeLessThanOrEqual(transcriptBox.x + transcriptBox.width + 0.5);
    await page.screenshot({ path: `${ARTIFACTS}/provider-rate-limited-${width}.png`, fullPage: true });
  });
  // It counts down.
  await expect
    .poll(async () => Number((await notice.textContent())?.match(/in (\d+) s/)?.[1]), { timeout: 5_000 })
    .toBeLessThan(first);
  const axe = await new AxeBuilder({ page }).include('[aria-label="Transcript"]').analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  // Stop ends the wait at once: no failure, no reply, the notice gone; one request only.
  const stoppedAt = Date.now();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(notice).toHaveCount(0, { timeout: 5_000 });
  expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  const afterStop = await request.get(`/api/threads/${threadId}`);
  expect(((await afterStop.json()) as { thread: { failure: string | null } }).thread.failure).toBeNull();
  expect(provider.requests).toHaveLength(1);

  // The next message is answered, once.
  await page.getByLabel("Message", { exact: true }).fill("Now?");
  await page.getByRole("button", { name: "Send" }).click();
  const replies = page
    .getByRole("list", { name: "Messages" })
    .getByTestId("message")
    .filter({ hasText: "Answered once." });
  // The provider's 30 s still pause this model at the gate (announced the same way), then it answers.
  await expect(replies).toHaveCount(1, { timeout: 45_000 });
  await expect(notice).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/provider-rate-limited-answered.png`, fullPage: true });
});
