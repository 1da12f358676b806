// The thread inspector: the selected thread's model calls (expandable to the full request), tool calls
// with their timings and files with download links, each in its own tab beside the transcript.
import fs from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { observableAssetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

interface Logs {
  model_calls: { request: { messages: { role: string; content: unknown }[] } | null }[];
  tool_calls: { name: string; duration_ms: number | null }[];
}

async function startAssetRun(request: APIRequestContext): Promise<string> {
  // Long enough that the child still runs after the root's Files tab was checked on a loaded machine.
  const definitions = observableAssetBundle(6000);
  const project = await request.post("/api/projects", {
    data: { name: `Inspect ${Date.now()}`, definitions },
  });
  expect(project.status()).toBe(201);
  const projectId = ((await project.json()) as { id: string }).id;
  const thread = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "orchestrator", message: "a lamp" },
  });
  expect(thread.status()).toBe(201);
  return ((await thread.json()) as { threadId: string }).threadId;
}

async function logsOf(request: APIRequestContext, threadId: string): Promise<Logs> {
  const response = await request.get(`/api/threads/${threadId}/logs`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Logs;
}

const tree = (page: Page) => page.getByRole("tree", { name: "Threads" });
const childItem = (page: Page) => tree(page).getByRole("treeitem", { name: /^asset_subagent/ });
const tab = (page: Page, name: string) =>
  page.getByRole("tablist", { name: "Inspect thread" }).getByRole("tab", { name, exact: true });

test("inspects a subagent's model calls, tool calls and files", async ({ page, request }) => {
  const rootId = await startAssetRun(request);
  await page.goto(`/threads/${rootId}`);
  await expect(tab(page, "Transcript")).toHaveAttribute("aria-selected", "true");

  // The root has no files: the tab says so, with no column headers over nothing; its Refresh is the
  // header buttons' size.
  await tab(page, "Files").click();
  const files = page.getByRole("region", { name: "Files" });
  await expect(files.getByTestId("files-empty")).toHaveText(/^No files in this thread yet\./);
  await expect(files.getByRole("table")).toHaveCount(0);
  const refreshBox = (await files.getByRole("button", { name: "Refresh" }).boundingBox())!;
  const replayBox = (await page.getByRole("button", { name: "Replay…" }).boundingBox())!;
  expect(refreshBox.height).toBe(replayBox.height);
  await page.screenshot({ path: `${ARTIFACTS}/inspect-files-empty.png` });
  await tab(page, "Transcript").click();

  // Select the child while it still works and open its model calls: the panel reloads by itself
  // when the child's status changes, so it ends with every call the API knows.
  await expect(childItem(page)).toHaveAttribute("data-status", "running", { timeout: 20_000 });
  const childId = (await childItem(page).getAttribute("data-thread-id"))!;
  await childItem(page).click();
  await tab(page, "Model calls").click();
  await expect(tab(page, "Model calls")).toHaveAttribute("aria-selected", "true");
  await expect(childItem(page)).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  const logs = await logsOf(request, childId);
  expect(logs.model_calls.length).toBeGreaterThanOrEqual(2);
  const modelRows = page.getByRole("list", { name: "Model call list" }).getByTestId("model-call");
  await expect(modelRows).toHaveCount(logs.model_calls.length);

  // Expanding a call shows its full request, the system prompt first.
  const system = logs.model_calls[0]!.request!.messages.find((message) => message.role === "system");
  expect(typeof system?.content).toBe("string");
  const firstLine = String(system!.content).split("\n")[0]!.trim();
  expect(firstLine.length).toBeGreaterThan(0);
  await modelRows.first().getByRole("button", { expanded: false }).click();
  await expect(modelRows.first().getByRole("button", { expanded: true })).toBeVisible();
  const systemMessage = modelRows.first().locator('[data-testid="request-message"][data-role="system"]');
  await expect(systemMessage).toContainText(firstLine);
  await expect(modelRows.first().getByRole("region", { name: "Response" })).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/inspect-model-calls.png`, fullPage: true });

  // Tool calls: the reviewer's approve tool, with how long it took.
  await tab(page, "Tool calls").click();
  const approveRow = page.locator('[data-testid="tool-call"][data-tool-name="approve_asset"]');
  await expect(approveRow).toHaveCount(1);
  await expect(approveRow.getByTestId("tool-duration")).toHaveText(/^\d+ ms$/);
  expect(logs.tool_calls.find((call) => call.name === "approve_asset")?.duration_ms).not.toBeNull();
  await approveRow.getByText("Arguments").click();
  await expect(approveRow).toContainText("Approved");
  await page.screenshot({ path: `${ARTIFACTS}/inspect-tool-calls.png`, fullPage: true });

  // Files: a file written through the API is listed and downloads with its bytes.
  const put = await request.put(`/api/threads/${childId}/fs/notes/a.txt`, {
    data: Buffer.from("hello from the notes\n"),
    headers: { "content-type": "text/plain" },
  });
  expect(put.status()).toBe(201);
  await tab(page, "Files").click();
  const fileRows = page.getByRole("table", { name: "Thread files" }).getByTestId("thread-file");
  await expect(fileRows).toHaveCount(1);
  await expect(fileRows.first()).toContainText("/notes/a.txt");
  await expect(fileRows.first()).toContainText("21 B");
  await expect(fileRows.first()).toContainText("text/plain");
  const link = fileRows.first().getByRole("link", { name: "Download /notes/a.txt" });
  await expect(link).toHaveAttribute("href", `/api/threads/${childId}/fs/notes/a.txt`);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(await fs.readFile((await download.path())!, "utf8")).toBe("hello from the notes\n");
  await page.screenshot({ path: `${ARTIFACTS}/inspect-files.png`, fullPage: true });

  // Back to the transcript; the keyboard moves between tabs.
  await tab(page, "Files").press("Home");
  await expect(tab(page, "Transcript")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("list", { name: "Messages" })).toBeVisible();
});
