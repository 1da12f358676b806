// Stop anywhere in a tree (issue 41): a running child's own view has Stop beside Terminate (and its
// streaming reply is labelled by the side's name, "Worker · typing…"), and
// stopping it lets its parent go on with the child's report; the root chat's Stop stops the blocking
// child it waits on too (its tokens stop rising), and the conversation goes on with the next message.
// Screenshots of a running child's view at 1280, 1440 and 1920 wide; axe on it.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";
import { assetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

/** An orchestrator chat blocked on a worker/reviewer child that takes about 30 s. */
async function blockingProject(request: APIRequestContext): Promise<string> {
  const definitions = assetBundle({
    config: { blocking: true, initUserMessageProperty: "task" },
    orchestratorScript: [
      { toolCalls: [{ name: "asset_subagent", args: { task: "{{input}}" } }] },
      { text: "The worker came back." },
      { text: "Going on with {{input}}." },
    ],
    workerScript: [{ text: "Draft: {{input}}", delayMs: 15000 }],
    reviewerScript: [
      { delayMs: 15000, toolCalls: [{ name: "approve_asset", args: { summary: "Approved {{input}}" } }] },
    ],
  });
  const created = await request.post("/api/projects", { data: { name: `Stop ${Date.now()}`, definitions } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function startRun(request: APIRequestContext, projectId: string): Promise<string> {
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "orchestrator", message: "a tree" },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { threadId: string }).threadId;
}

const tree = (page: Page) => page.getByRole("tree", { name: "Threads" });
const rootItem = (page: Page) => tree(page).getByRole("treeitem", { name: /^orchestrator/ });
const childItem = (page: Page) => tree(page).getByRole("treeitem", { name: /^asset_subagent/ });
const header = (page: Page) => page.getByRole("region", { name: "Selected thread" }).locator("header");

async function usageOf(request: APIRequestContext, threadId: string): Promise<number> {
  const view = (await (await request.get(`/api/threads/${threadId}`)).json()) as {
    thread: { usage: { input_tokens: number; output_tokens: number } };
  };
  return view.thread.usage.input_tokens + view.thread.usage.output_tokens;
}

test("a running child's view stops it, and its parent goes on with the child's report", async ({
  page,
  request,
}) => {
  const rootId = await startRun(request, await blockingProject(request));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${rootId}`);
  await expect(childItem(page)).toHaveAttribute("data-status", "running");
  await childItem(page).click();
  const stop = header(page).getByRole("button", { name: "Stop", exact: true });
  await expect(stop).toBeVisible();
  await expect(header(page).getByRole("button", { name: "Terminate" })).toBeVisible();
  // The worker's reply streams under its side's name from the first chunk, as it will read once stored.
  const streaming = page.getByRole("status", { name: "Streaming reply" });
  await expect(streaming).toContainText("Worker · typing…");
  await expect(streaming).not.toContainText("Assistant");
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/live-stop-child-${width}.png` });
  });
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);

  await stop.click();
  await expect(childItem(page)).toHaveAttribute("data-status", "stopped");
  await expect(header(page).getByTestId("status-badge")).toHaveText("stopped");
  await expect(header(page).getByRole("button", { name: "Stop", exact: true })).toHaveCount(0);
  // The parent goes on with the child's report.
  await expect(rootItem(page)).toHaveAttribute("data-status", "idle", { timeout: 20_000 });
  await rootItem(page).click();
  await expect(page.getByRole("list", { name: "Messages" })).toContainText("The worker came back.");
  await page.screenshot({ path: `${ARTIFACTS}/live-stop-child-after.png` });
});

test("the root's Stop stops the child it waits on; the next message goes on", async ({ page, request }) => {
  const rootId = await startRun(request, await blockingProject(request));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${rootId}`);
  await expect(childItem(page)).toHaveAttribute("data-status", "running");
  const childId = (await childItem(page).getAttribute("data-thread-id"))!;

  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(rootItem(page)).toHaveAttribute("data-status", "stopped");
  await expect(childItem(page)).toHaveAttribute("data-status", "stopped");
  // Nothing of the child goes on: its usage stays where it was.
  const spent = await usageOf(request, childId);
  await page.waitForTimeout(2_000);
  expect(await usageOf(request, childId)).toBe(spent);
  await expect(childItem(page)).toHaveAttribute("data-status", "stopped");
  await page.screenshot({ path: `${ARTIFACTS}/live-stop-root.png` });

  // The thread stays usable: the next message is answered.
  await page.getByLabel("Message", { exact: true }).fill("more");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(rootItem(page)).toHaveAttribute("data-status", "idle", { timeout: 20_000 });
  await expect(page.getByRole("list", { name: "Messages" })).toContainText("The worker came back.");
});
