// Replaying a run after the project moved on (issue 41's new-user pass): a chat run made with the chat
// template's `assistant`, then another template saved (no `assistant` in the latest version). The
// "Replay…" dialog offers "the latest saved definitions" disabled with the reason on screen and starts
// on "the version it ran with"; the API called anyway answers in words; "Replay runs" on the project
// page names the skipped run as the run list does, with the reason in the user's words. And a
// completed one-off child (the asset example's red_potion) offers no Terminate in its header. Axe on
// the dialog, the panel and the page; screenshots at 1280, 1440 and 1920.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { assetExampleBundle } from "../lib/standard/examples";
import { chatTemplate, namedWorkersTemplate } from "../lib/studio/templates";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";
import { observableAssetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

async function expectNoAxeViolations(page: Page, selector?: string) {
  const builder = new AxeBuilder({ page });
  const results = await (selector ? builder.include(selector) : builder).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

/** A project whose chat run used `assistant`, then the named-workers template saved over it. */
async function chatRunThenOtherTemplate(
  request: APIRequestContext,
): Promise<{ projectId: string; threadId: string }> {
  const created = await request.post("/api/projects", { data: { name: `Replay older ${Date.now()}` } });
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
  await importBundle(namedWorkersTemplate());
  return { projectId, threadId };
}

test("a run whose agent the latest version lacks replays against the version it ran with, and says why", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { request } = page;
  const { projectId, threadId } = await chatRunThenOtherTemplate(request);

  // The API called anyway answers in words (not "Agent not found: assistant").
  const refused = await request.post(`/api/threads/${threadId}/replay`, { data: { from_version: "latest" } });
  expect(refused.status()).toBe(422);
  const body = (await refused.json()) as { error: string; code: string };
  expect(body.code).toBe("replay_agent_missing");
  expect(body.error).toMatch(
    /^The latest saved version \(v\d+\) has no agent assistant, so this run cannot be replayed against it\. Replay it against the version it ran with \(v\d+\)\.$/,
  );

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${threadId}`);
  await expect(page.getByRole("list", { name: "Messages" }).getByTestId("message")).toHaveCount(2, {
    timeout: 20_000,
  });
  await page.getByRole("button", { name: "Replay…" }).click();
  const dialog = page.getByRole("dialog", { name: "Replay this run" });
  await expect(dialog).toBeVisible();
  const latest = dialog.getByRole("radio", { name: /latest saved definitions/ });
  await expect(latest).toBeDisabled();
  await expect(latest).not.toBeChecked();
  await expect(dialog.getByRole("radio", { name: /version it ran with/ })).toBeChecked();
  // The reason is on screen, in words.
  const reason = dialog.getByText(
    "Not available: the latest saved version has no agent assistant, which this run started with.",
  );
  await expect(reason).toBeVisible();
  await expectNoAxeViolations(page, '[aria-label="Replay this run"]');
  await atEachWidth(page, async (width) => {
    await expect(reason).toBeInViewport();
    const box = (await dialog.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= width).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/replay-older-version-dialog-${width}.png` });
  });
  await dialog.getByRole("button", { name: "Replay", exact: true }).click();
  await expect(page).not.toHaveURL(new RegExp(`/threads/${threadId}$`), { timeout: 20_000 });
  await expect(page.getByTestId("replay-banner")).toContainText("Finished", { timeout: 20_000 });

  // "Replay runs" on the project page: the run is skipped, named as the run list names it.
  await page.goto(`/projects/${projectId}`);
  const panel = page.getByRole("region", { name: "Replay runs" });
  await expect(panel.getByRole("button", { name: "Replay", exact: true })).toBeEnabled({ timeout: 10_000 });
  await panel.getByRole("button", { name: "Replay", exact: true }).click();
  const skipped = panel.getByTestId("replay-skipped");
  await expect(skipped).toHaveCount(1, { timeout: 20_000 });
  await expect(skipped).toHaveText(
    /^Skipped: the run of assistant at .+ — the latest version has no agent assistant$/,
  );
  await expect(skipped).not.toContainText(threadId.slice(0, 8));
  // Not "No finished runs to replay yet": there was one, and it could not be replayed.
  await expect(panel.getByTestId("replay-runs-summary")).toHaveText("No run could be replayed · 1 skipped");
  await expectNoAxeViolations(page, '[aria-label="Replay runs"]');
  await atEachWidth(page, async (width) => {
    await skipped.scrollIntoViewIfNeeded();
    const box = (await skipped.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= width).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/replay-older-version-skipped-${width}.png` });
  });
});

test("a completed one-off child offers no Terminate; its parent still does while it waits for input", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { request } = page;
  const created = await request.post("/api/projects", {
    data: { name: `One-off child ${Date.now()}`, definitions: assetExampleBundle },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const started = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "orchestrator", message: "build" },
  });
  const rootId = ((await started.json()) as { threadId: string }).threadId;
  await waitIdle(request, rootId, 4);
  const tree = (await (await request.get(`/api/threads/${rootId}/tree`)).json()) as {
    root: { children: { id: string; status: string }[] };
  };
  const child = tree.root.children[0]!;
  expect(child.status).toBe("completed");

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${child.id}`);
  const header = page.getByRole("region", { name: "Selected thread" }).locator("header");
  await expect(header.getByTestId("thread-agent")).toHaveText("asset_subagent", { timeout: 20_000 });
  await expect(header).toContainText("completed");
  await expect(header.getByRole("button", { name: "Terminate" })).toHaveCount(0);
  await expect(header.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/replay-older-version-oneoff-child-${width}.png` });
  });
  // The root, idle and waiting for the user's next message, still offers Terminate.
  await page
    .getByRole("tree", { name: "Threads" })
    .getByRole("treeitem", { name: /^orchestrator/ })
    .click();
  await expect(header.getByTestId("thread-agent")).toHaveText("orchestrator");
  await expect(header.getByRole("button", { name: "Terminate" })).toBeVisible();
});

test("a completed dual_ai root offers no Terminate: nothing can post to it", async ({ page }) => {
  const { request } = page;
  const created = await request.post("/api/projects", {
    data: { name: `Dual_ai root ${Date.now()}`, definitions: observableAssetBundle(0) },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const started = await request.post("/api/threads", {
    // The asset worker and reviewer started as a root: the reviewer's approve_asset completes the session.
    data: { project_id: projectId, agent_id: "asset_subagent", message: "a pebble" },
  });
  const rootId = ((await started.json()) as { threadId: string }).threadId;
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/threads/${rootId}`)).json()) as { thread: { status: string } })
          .thread.status,
      { timeout: 20_000 },
    )
    .toBe("completed");

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${rootId}`);
  const header = page.getByRole("region", { name: "Selected thread" }).locator("header");
  await expect(header.getByTestId("thread-agent")).toHaveText("asset_subagent", { timeout: 20_000 });
  await expect(header).toContainText("completed");
  await expect(header.getByRole("button", { name: "Terminate" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveCount(0);
});
