// A run keeps its chat after the project moves on (issue 41's new-user pass): a chat started on one
// version, then another template saved over the project (no agent of that name in the latest
// version), still shows its message box on the thread page and answers there; a dual_ai child of
// such a run still names its sides by their labels (not "User"), on its thread page and when two
// such runs are compared. Axe on the page; screenshots at 1280, 1440 and 1920.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { assetExampleBundle } from "../lib/standard/examples";
import { chatTemplate, namedWorkersTemplate } from "../lib/studio/templates";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

test("a chat on an older version keeps its message box after a new template is saved", async ({ page }) => {
  test.setTimeout(90_000);
  const { request } = page;
  const created = await request.post("/api/projects", { data: { name: `Older version ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const importBundle = async (bundle: unknown) => {
    const imported = await request.post(`/api/projects/${projectId}/import`, { data: bundle });
    expect(imported.status()).toBe(200);
  };
  await importBundle(chatTemplate());
  const started = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "assistant", message: "hello" },
  });
  expect(started.status()).toBe(201);
  const threadId = ((await started.json()) as { threadId: string }).threadId;
  await waitIdle(request, threadId, 2);
  // The latest version has no "assistant" any more.
  await importBundle(namedWorkersTemplate());

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${threadId}`);
  const messages = page.getByRole("list", { name: "Messages" }).getByTestId("message");
  await expect(messages).toHaveCount(2, { timeout: 20_000 });
  const box = page.getByLabel("Message", { exact: true });
  await expect(box).toBeVisible();
  await box.fill("still there?");
  await box.press("Enter");
  await expect(messages).toHaveCount(4, { timeout: 20_000 });
  await expect(messages.nth(2)).toContainText("still there?");
  await waitIdle(request, threadId, 4);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await atEachWidth(page, async (width) => {
    await expect(box).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/thread-older-version-${width}.png` });
  });
});

test("a dual_ai child of a run on an older version names its sides by their labels", async ({ page }) => {
  test.setTimeout(90_000);
  const { request } = page;
  const created = await request.post("/api/projects", {
    data: { name: `Older child ${Date.now()}`, definitions: assetExampleBundle },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const started = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "orchestrator", message: "build" },
  });
  expect(started.status()).toBe(201);
  const rootId = ((await started.json()) as { threadId: string }).threadId;
  await waitIdle(request, rootId, 4);
  const tree = (await (await request.get(`/api/threads/${rootId}/tree`)).json()) as {
    root: { children: { id: string }[] };
  };
  const childId = tree.root.children[0]!.id;
  // The latest version has no asset_subagent any more.
  const imported = await request.post(`/api/projects/${projectId}/import`, { data: chatTemplate() });
  expect(imported.status()).toBe(200);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${childId}`);
  const transcript = page.getByRole("list", { name: "Messages" });
  await expect(transcript.getByRole("listitem", { name: "Worker", exact: true }).first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(transcript.getByRole("listitem", { name: "Reviewer", exact: true }).first()).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/thread-older-version-child-1280.png` });
});

test("comparing two runs of an older version names a dual_ai child's sides by their labels", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { request } = page;
  const created = await request.post("/api/projects", {
    data: { name: `Older diff ${Date.now()}`, definitions: assetExampleBundle },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const runs: string[] = [];
  for (const message of ["build", "build again"]) {
    const started = await request.post("/api/threads", {
      data: { project_id: projectId, agent_id: "orchestrator", message },
    });
    expect(started.status()).toBe(201);
    const threadId = ((await started.json()) as { threadId: string }).threadId;
    await waitIdle(request, threadId, 4);
    runs.push(threadId);
  }
  // The latest version has no asset_subagent any more.
  const imported = await request.post(`/api/projects/${projectId}/import`, { data: chatTemplate() });
  expect(imported.status()).toBe(200);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/diff?a=${runs[0]}&b=${runs[1]}`);
  await expect(page.getByTestId("diff-summary")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Run A: Reviewer", { exact: true }).first()).toBeAttached();
  await expect(page.getByText("Run B: Worker", { exact: true }).first()).toBeAttached();
});
