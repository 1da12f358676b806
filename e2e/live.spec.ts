// The live views: start an ai_human run from the project page, watch its non-blocking subagent
// appear and finish in the tree, read the parent's transcript, reload mid-run without losing or
// doubling a message, and terminate a tree from the UI (a completed child keeps its own duration).
// Scripted models with delays keep runs slow enough to watch.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";
import { assetBundle, observableAssetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

async function createAssetProject(request: APIRequestContext): Promise<string> {
  // 2.5 s per scripted model call: the child works about 5 s, which outlasts a reload on a loaded machine.
  const definitions = observableAssetBundle(2500);
  const created = await request.post("/api/projects", { data: { name: `Live ${Date.now()}`, definitions } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function startRunFromUi(page: Page, projectId: string, message: string): Promise<string> {
  await page.goto(`/projects/${projectId}`);
  const threads = page.getByRole("region", { name: "Threads" });
  await expect(threads.getByLabel("Agent", { exact: true })).toHaveValue("orchestrator");
  await threads.getByLabel("First message").fill(message);
  await threads.getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);
  return page.url().split("/threads/")[1]!;
}

const tree = (page: Page) => page.getByRole("tree", { name: "Threads" });
const childItem = (page: Page) => tree(page).getByRole("treeitem", { name: /^asset_subagent/ });
const transcriptRows = (page: Page) => page.getByRole("list", { name: "Messages" }).getByTestId("message");

async function messageCount(request: APIRequestContext, threadId: string): Promise<number> {
  const response = await request.get(`/api/threads/${threadId}/messages?includeSilent=true&limit=1000`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { total: number }).total;
}

async function expectNoDoubledRows(page: Page) {
  const ids = await transcriptRows(page).evaluateAll((rows) =>
    rows.map((row) => row.getAttribute("data-message-id")),
  );
  expect(new Set(ids).size).toBe(ids.length);
}

test("runs an ai_human agent, watches its subagent finish, and loses nothing on a reload", async ({
  page,
  request,
}) => {
  const projectId = await createAssetProject(request);
  const rootId = await startRunFromUi(page, projectId, "a rock");

  // The child appears in the tree while it works, one level below the root.
  await expect(childItem(page)).toHaveAttribute("data-status", "running");
  await expect(childItem(page)).toHaveAttribute("aria-level", "2");
  await expect(childItem(page)).toContainText("non-blocking");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(2);
  await page.screenshot({ path: `${ARTIFACTS}/live-child-running.png`, fullPage: true });

  // Reload mid-run (the child works for about 5 s): the stream replays from the start into a fresh state.
  await page.reload();
  await expect(tree(page).getByRole("treeitem")).toHaveCount(2);
  await expect(childItem(page)).toHaveAttribute("data-status", "running");
  await expect(childItem(page)).toHaveAttribute("data-status", "completed", { timeout: 20_000 });

  // The parent hears the report (a silent message, shown as a handoff back from the child) and answers it.
  const report = transcriptRows(page).filter({ has: page.getByTestId("subagent-report") });
  await expect(report.filter({ hasText: "Approved Draft: a rock" }).first()).toBeVisible({ timeout: 20_000 });
  await expect(report.first()).toContainText("Handed back by asset_subagent");
  const finalAnswer = report.filter({ hasText: /^Assistant.*Got:/s });
  await expect(finalAnswer).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByRole("listitem", { name: "User (silent)" })).toHaveCount(1);
  await expect(transcriptRows(page).filter({ hasText: "Tool call · asset_subagent" })).toHaveCount(1);
  // The folded tool call and result toggles are targets of at least 24 px (WCAG 2.2 target size).
  const toggles = page.getByRole("list", { name: "Messages" }).locator("summary");
  expect(await toggles.count()).toBeGreaterThan(0);
  for (const toggle of await toggles.all())
    expect((await toggle.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  const transcriptAxe = await new AxeBuilder({ page })
    .include('[aria-label="Transcript"]')
    .options({ rules: { "target-size": { enabled: true } } })
    .analyze();
  expect(transcriptAxe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await expect(tree(page).getByRole("treeitem", { name: /^orchestrator/ })).toHaveAttribute(
    "data-status",
    "idle",
  );

  // Every persisted message shows exactly once, in the root and in the child.
  await expect(transcriptRows(page)).toHaveCount(await messageCount(request, rootId));
  await expectNoDoubledRows(page);
  const childId = await childItem(page).getAttribute("data-thread-id");
  await childItem(page).click();
  await expect(childItem(page)).toHaveAttribute("aria-selected", "true");
  const workerDraft = transcriptRows(page).filter({ hasText: "Draft: a rock" }).first();
  await expect(workerDraft).toContainText(/^Worker/);
  await expect(transcriptRows(page)).toHaveCount(await messageCount(request, childId!));
  await expectNoDoubledRows(page);
  await page.screenshot({ path: `${ARTIFACTS}/live-child-transcript.png`, fullPage: true });

  // The run is listed on the project page with its status.
  await page.goto(`/projects/${projectId}`);
  const listed = page.getByRole("list", { name: "Root threads" }).getByRole("listitem");
  await expect(listed).toHaveCount(1);
  await expect(listed.first()).toContainText("orchestrator");
  await expect(listed.first().getByTestId("status-badge")).toHaveText("idle");
  await listed.first().getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/threads/${rootId}$`));
});

test("a tool call without its result says so: running while the blocking child works, no result once stopped", async ({
  page,
  request,
}) => {
  const definitions = assetBundle({
    config: { blocking: true },
    orchestratorScript: [
      { toolCalls: [{ name: "asset_subagent", args: { message: "{{input}}" } }] },
      { text: "Done: {{input}}" },
    ],
    // Long enough that the second run's child is still working when the test terminates it, also on
    // a loaded machine (at 2.5 s a CI rehearsal saw the child answer the call first).
    workerScript: [{ text: "Draft: {{input}}", delayMs: 8000 }],
  });
  const created = await request.post("/api/projects", {
    data: { name: `Pending ${Date.now()}`, definitions },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const call = () => transcriptRows(page).filter({ hasText: "Tool call · asset_subagent" });

  // Completed: the call shows it is running while the child works, and nothing once answered.
  await startRunFromUi(page, projectId, "a lamp");
  await expect(childItem(page)).toHaveAttribute("data-status", "running");
  await expect(call().getByTestId("tool-call-pending")).toHaveText("running…");
  await page.screenshot({ path: `${ARTIFACTS}/live-call-pending.png`, fullPage: true });
  await expect(childItem(page)).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await expect(transcriptRows(page).filter({ hasText: "Done:" })).toHaveCount(1, { timeout: 20_000 });
  await expect(call().getByTestId("tool-call-pending")).toHaveCount(0);

  // Terminated while the child works: the call was never answered, and says so.
  await startRunFromUi(page, projectId, "a chair");
  await expect(call().getByTestId("tool-call-pending")).toHaveText("running…");
  const header = page.getByRole("region", { name: "Selected thread" }).locator("header");
  await header.getByRole("button", { name: "Terminate" }).click();
  await page.getByRole("button", { name: "Confirm terminate" }).click();
  await expect(header.getByTestId("status-badge")).toHaveText("terminated");
  await expect(call().getByTestId("tool-call-pending")).toHaveText("no result");
});

test("terminates a running tree from the UI after a confirmation", async ({ page, request }) => {
  const projectId = await createAssetProject(request);
  const rootId = await startRunFromUi(page, projectId, "a tree");
  await expect(childItem(page)).toHaveAttribute("data-status", "running");

  const header = page.getByRole("region", { name: "Selected thread" }).locator("header");
  await header.getByRole("button", { name: "Terminate" }).click();
  await page.getByRole("button", { name: "Confirm terminate" }).click();

  await expect(header.getByTestId("status-badge")).toHaveText("terminated");
  await expect(tree(page).getByRole("treeitem", { name: /^orchestrator/ })).toHaveAttribute(
    "data-status",
    "terminated",
  );
  await expect(childItem(page)).toHaveAttribute("data-status", "terminated");
  await page.screenshot({ path: `${ARTIFACTS}/live-terminated.png`, fullPage: true });

  // A terminated thread offers no chat; the server agrees after a reload.
  await expect(page.getByRole("button", { name: "Send" })).toHaveCount(0);
  await page.reload();
  await expect(childItem(page)).toHaveAttribute("data-status", "terminated");
  const thread = (await (await request.get(`/api/threads/${rootId}`)).json()) as {
    thread: { status: string };
  };
  expect(thread.thread.status).toBe("terminated");
});

test("after Terminate, a completed child still shows its own duration (issue 41)", async ({
  page,
  request,
}) => {
  // The child works about 2 s; the tree is terminated 4 s after it completed.
  const created = await request.post("/api/projects", {
    data: { name: `Durations ${Date.now()}`, definitions: observableAssetBundle(1000) },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  await startRunFromUi(page, projectId, "a bush");
  await expect(childItem(page)).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  const root = tree(page).getByRole("treeitem", { name: /^orchestrator/ });
  await expect(root).toHaveAttribute("data-status", "idle", { timeout: 20_000 });
  const durationOf = async () => /\u2003(\d+s)/.exec((await childItem(page).textContent()) ?? "")?.[1];
  const ownDuration = await durationOf();
  expect(ownDuration).toMatch(/^[1-3]s$/);

  await page.waitForTimeout(4_000);
  const header = page.getByRole("region", { name: "Selected thread" }).locator("header");
  await header.getByRole("button", { name: "Terminate" }).click();
  await page.getByRole("button", { name: "Confirm terminate" }).click();
  await expect(childItem(page)).toHaveAttribute("data-status", "terminated");
  expect(await durationOf()).toBe(ownDuration);
  // The timeline's bar says the same; after a reload too.
  await page.reload();
  await expect(childItem(page)).toHaveAttribute("data-status", "terminated");
  expect(await durationOf()).toBe(ownDuration);
  await page.getByRole("tab", { name: "Timeline" }).click();
  const bars = page.getByRole("list", { name: "Timeline of the threads" });
  await expect(bars.getByRole("button", { name: /^asset_subagent/ })).toHaveAccessibleName(
    new RegExp(`, ${ownDuration}, `),
  );
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/live-terminated-durations-${width}.png`, fullPage: true });
  });
  await page.getByRole("tab", { name: "Transcript" }).click();
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/live-terminated-tree-${width}.png`, fullPage: true });
  });
});

test("sends a chat message to an idle ai_human root and shows the reply", async ({ page, request }) => {
  const definitions = {
    agents: [{ name: "helper", type: "ai_human", sideA: { prompt: "helper_chat" } }],
    prompts: [{ name: "helper_chat", toolDescription: "Helps.", prompt: "Help.", model: "helper_model" }],
    models: [
      {
        name: "helper_model",
        provider: "scripted",
        model: "s",
        script: [{ text: "Echo: {{input}}", delayMs: 2000 }],
      },
    ],
    tools: [],
  };
  const created = await request.post("/api/projects", { data: { name: `Chat ${Date.now()}`, definitions } });
  expect(created.status()).toBe(201);
  const { id: projectId } = (await created.json()) as { id: string };
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);
  await expect(tree(page).getByRole("treeitem", { name: /^helper/ })).toHaveAttribute("data-status", "idle");

  await page.getByLabel("Message", { exact: true }).fill("hello there");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(transcriptRows(page).filter({ hasText: "hello there" }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop" })).toBeEnabled();
  // The reply streams in (message_chunk) before it is persisted, then the streamed box gives way to it.
  const streaming = page.getByRole("status", { name: "Streaming reply" });
  await expect(streaming).toContainText("Ech");
  await expect(transcriptRows(page).filter({ hasText: "Echo: hello there" })).toHaveCount(0);
  await expect(transcriptRows(page).filter({ hasText: "Echo: hello there" })).toHaveCount(1, {
    timeout: 20_000,
  });
  await expect(streaming).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Stop" })).toBeDisabled();
  await expect(transcriptRows(page)).toHaveCount(2);
});

test("messages a resumable subagent from its node in the tree", async ({ page, request }) => {
  const definitions = assetBundle({
    config: { blocking: false, resumable: { receives_messages: "side_a", maxInstances: 2 } },
    orchestratorScript: [
      { toolCalls: [{ name: "subagent_create", args: { name: "alpha", message: "{{input}}" } }] },
      { text: "Started." },
      { text: "Got: {{input}}" },
      { text: "Again: {{input}}" },
    ],
    workerScript: [{ text: "Draft: {{input}}" }, { text: "Redraft: {{input}}", delayMs: 500 }],
    reviewerScript: [
      { toolCalls: [{ name: "approve_asset", args: { summary: "Approved {{input}}" } }] },
      { toolCalls: [{ name: "approve_asset", args: { summary: "Approved again {{input}}" } }] },
    ],
  });
  const created = await request.post("/api/projects", {
    data: { name: `Resume ${Date.now()}`, definitions },
  });
  expect(created.status()).toBe(201);
  const { id: projectId } = (await created.json()) as { id: string };
  await startRunFromUi(page, projectId, "one");

  const alpha = tree(page).getByRole("treeitem", { name: /^alpha asset_subagent/ });
  await expect(alpha).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await expect(alpha).toContainText("resumable");
  // The root has no subagent box; the resumable child has one and no chat box.
  await expect(page.getByLabel("Message this subagent")).toHaveCount(0);
  await alpha.click();
  await expect(page.getByRole("button", { name: "Send", exact: true })).toHaveCount(0);
  await page.getByLabel("Message this subagent").fill("again");
  await page.getByRole("button", { name: "Send to subagent" }).click();
  const transcript = page.getByRole("list", { name: "Messages" });
  await expect(
    transcript.getByRole("listitem", { name: "Worker", exact: true }).filter({ hasText: "Redraft: again" }),
  ).toHaveCount(1, { timeout: 20_000 });
  await expect(
    transcript.getByRole("listitem", { name: "User", exact: true }).filter({ hasText: "again" }),
  ).toHaveCount(1);
  await expect(alpha).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await page.screenshot({ path: `${ARTIFACTS}/live-resumable-message.png`, fullPage: true });
});
