// The playground inside the studio: its empty and run-form states; chat with the chat template's
// agent and watch the reply stream in the panel without leaving /projects/:id/studio; run the asset
// example (scripted steps slowed down with delayMs) and watch the canvas overlay — the subagent's
// badge counts its running child, its edge animates while the child runs and stops after — and the
// run's tree in the panel. Screenshots at 1280, 1440 and 1920 wide go to e2e-artifacts; axe-core
// checks the panel.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { assetExampleBundle } from "../lib/standard/examples";
import { chatTemplate } from "../lib/studio/templates";
import { canvasSettled, edgesOutsidePane, graphOffCentre } from "../test/support/e2e-canvas";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

const playground = (page: Page): Locator => page.getByRole("complementary", { name: "Playground" });
const agentNode = (page: Page, name: string): Locator =>
  page.locator(".react-flow__node-agent").filter({ has: page.getByText(name, { exact: true }) });
/** An agent node's playground badge (a NodeToolbar, drawn outside the node's own element). */
const runBadge = (page: Page, agent: string): Locator =>
  page.locator(`[data-testid="run-overlay"][data-agent="${agent}"]`);

async function createProject(page: Page, label: string): Promise<string> {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** axe-core on the playground panel (its chat, tree and controls): no violation at all. */
async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include("#studio-playground").analyze();
  const findings = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${violation.help} ${node.html}`),
  );
  expect(findings).toEqual([]);
}

const viewportTransform = (page: Page) =>
  page.locator(".react-flow__viewport").evaluate((element) => getComputedStyle(element).transform);

/**
 * Whether the view is the `fitted` one: the same zoom, and the same place to within a pixel (a fit
 * computed again lands on half pixels that layout rounding moves by 0.5; nobody sees that).
 */
async function isFittedView(page: Page, fitted: string): Promise<boolean> {
  const parse = (transform: string) => (transform.match(/-?[\d.]+/g) ?? []).map(Number);
  const [a, , , d, x, y] = parse(await viewportTransform(page));
  const [fa, , , fd, fx, fy] = parse(fitted);
  return a === fa && d === fd && Math.abs(x! - fx!) <= 1 && Math.abs(y! - fy!) <= 1;
}

test("a fitted canvas is fitted again when the playground opens and closes; a view the user zoomed stays", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await importProject(page, "Playground refit", chatTemplate());
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(1, { timeout: 15_000 });
  await expect.poll(() => graphOffCentre(page)).toBeLessThan(2);
  await canvasSettled(page);
  const fitted = await viewportTransform(page);

  await page.getByRole("button", { name: "Run", exact: true }).click();
  const panel = playground(page);
  await expect(panel).toBeVisible();
  await expect.poll(() => viewportTransform(page)).not.toBe(fitted);
  await expect.poll(() => graphOffCentre(page)).toBeLessThan(2);
  await panel.getByRole("button", { name: "Close the playground" }).click();
  await expect.poll(() => isFittedView(page, fitted)).toBe(true);

  // Zoomed by the user (the controls): opening the playground leaves the view alone.
  await page.getByRole("button", { name: "Zoom Out" }).click();
  await expect.poll(() => viewportTransform(page)).not.toBe(fitted);
  // The zoom animates: read the view once it has landed (a loaded machine takes longer than 400 ms).
  await canvasSettled(page);
  const zoomed = await viewportTransform(page);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(panel).toBeVisible();
  await page.waitForTimeout(400);
  await canvasSettled(page);
  expect(await viewportTransform(page)).toBe(zoomed);
});

test("says why nothing can run on an empty canvas, then offers the chat template's agent", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = await createProject(page, "Playground states");
  await page.goto(`/projects/${id}/studio`);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const panel = playground(page);
  await expect(panel.getByTestId("playground-empty")).toContainText("Add an ai_human agent");
  await page.screenshot({ path: `${ARTIFACTS}/studio-playground-empty-1280.png` });
  await panel.getByRole("button", { name: "Close the playground" }).click();
  await expect(page.getByRole("complementary", { name: "Inspector" })).toBeVisible();

  await page.getByRole("button", { name: "Templates" }).click();
  await page
    .getByRole("menu", { name: "Templates" })
    .getByRole("menuitem", { name: /Chat assistant/ })
    .click();
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(1);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(panel.getByLabel("Agent")).toHaveValue("assistant");
  await expect(panel.getByTestId("playground-version")).toContainText("unsaved changes");
  await expect(panel.getByRole("button", { name: "Save and start run" })).toBeEnabled();
  await page.screenshot({ path: `${ARTIFACTS}/studio-playground-setup-1280.png` });
  await expectNoAxeViolations(page);
});

/** The chat template with its scripted replies slowed down (delayMs), so streaming can be watched. */
function slowChatBundle() {
  const bundle = chatTemplate();
  for (const model of bundle.models) {
    model.script = [
      {
        text: "You said: {{input}}. This reply streams in pieces, so you can watch it arrive.",
        delayMs: 2400,
      },
      { text: "Second answer to {{input}}.", delayMs: 300 },
    ];
  }
  return bundle;
}

async function importProject(page: Page, label: string, bundle: unknown): Promise<string> {
  const id = await createProject(page, label);
  const imported = await page.request.post(`/api/projects/${id}/import`, {
    data: bundle,
    headers: { "content-type": "application/json" },
  });
  expect(imported.status()).toBe(200);
  return id;
}

test("chats with the chat template in the playground and watches the reply stream, staying in the studio", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = await importProject(page, "Playground chat", slowChatBundle());
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(1, { timeout: 15_000 });

  await page.getByRole("button", { name: "Run", exact: true }).click();
  const panel = playground(page);
  await expect(panel.getByLabel("Agent")).toHaveValue("assistant");
  await expect(panel.getByTestId("playground-version")).toContainText(/Runs the saved version v\d+/);
  await panel.getByRole("button", { name: "Start run", exact: true }).click();

  await expect(panel.getByTestId("playground-agent")).toHaveText("assistant", { timeout: 20_000 });
  await expect(panel.getByTestId("playground-stop-reason")).toContainText("Waiting for your message", {
    timeout: 20_000,
  });
  await expect(page.getByRole("status", { name: "Studio status" })).toContainText("playground");

  await panel.getByLabel("Message", { exact: true }).fill("hello there");
  await panel.getByLabel("Message", { exact: true }).press("Enter");
  // The reply streams: part of it shows in the streaming box before the whole message is saved.
  const streaming = panel.getByRole("status", { name: "Streaming reply" });
  // Read in the page the moment the box first shows text, so a fast finish cannot race the check.
  const partial = await page.waitForFunction(
    () => {
      const box = document.querySelector('#studio-playground [aria-label="Streaming reply"]');
      return box?.textContent?.includes("You said") ? box.textContent : null;
    },
    undefined,
    { timeout: 30_000, polling: 50 },
  );
  expect(await partial.jsonValue()).not.toContain("watch it arrive.");
  await page.screenshot({ path: `${ARTIFACTS}/studio-playground-streaming-1280.png` });
  const messages = panel.getByRole("list", { name: "Messages" }).getByTestId("message");
  await expect(messages.filter({ hasText: "You said: hello there." })).toHaveCount(1, { timeout: 15_000 });
  await expect(messages.filter({ hasText: "watch it arrive." })).toHaveCount(1);
  await expect(streaming).toHaveCount(0);

  // A second turn in the same conversation.
  await panel.getByLabel("Message", { exact: true }).fill("and again");
  await panel.getByRole("button", { name: "Send", exact: true }).click();
  await expect(messages.filter({ hasText: "Second answer to and again." })).toHaveCount(1, {
    timeout: 15_000,
  });
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/studio$`));

  const fullPage = panel.getByRole("link", { name: /Open full thread page/ });
  await expect(fullPage).toHaveAttribute("href", /^\/threads\/[0-9a-f-]{36}$/);
  await expect(fullPage).toHaveAttribute("target", "_blank");
  // The transcript scrolls by keyboard: it takes focus (a long conversation is a scrollable region).
  const transcript = panel.getByRole("region", { name: "Transcript" });
  await transcript.focus();
  await expect(transcript).toBeFocused();
  await expectNoAxeViolations(page);

  // Closing keeps the run; Run opens it again, and New run goes back to the form.
  await panel.getByRole("button", { name: "Close the playground" }).click();
  await expect(page.getByRole("complementary", { name: "Inspector" })).toBeVisible();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(messages.filter({ hasText: "Second answer to and again." })).toHaveCount(1);
  await panel.getByRole("button", { name: "New run" }).click();
  await expect(panel.getByRole("button", { name: "Start run" })).toBeVisible();
  await expect(panel.getByTestId("playground-version")).toContainText("Runs the saved version v");
});

test("a reload keeps the playground: the text typed before a run, then the run it follows and the unsent message", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = await importProject(page, "Playground reload", slowChatBundle());
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(1, { timeout: 15_000 });
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const panel = playground(page);
  await panel.getByLabel(/First message/).fill("hello there");

  // Reloaded before starting: the playground is open again with the first message as it was typed.
  await page.reload();
  await expect(panel.getByLabel(/First message/)).toHaveValue("hello there", { timeout: 15_000 });
  await panel.getByRole("button", { name: "Start run", exact: true }).click();
  const messages = panel.getByRole("list", { name: "Messages" }).getByTestId("message");
  await expect(messages.filter({ hasText: "You said: hello there." })).toHaveCount(1, { timeout: 30_000 });
  await panel.getByLabel("Message", { exact: true }).fill("half a thought");

  // Reloaded mid-conversation: the same run, its transcript read again, and the unsent text kept.
  await page.reload();
  await expect(messages.filter({ hasText: "You said: hello there." })).toHaveCount(1, { timeout: 15_000 });
  await expect(panel.getByLabel("Message", { exact: true })).toHaveValue("half a thought");
  await panel.getByLabel("Message", { exact: true }).fill("and again");
  await panel.getByLabel("Message", { exact: true }).press("Enter");
  await expect(messages.filter({ hasText: "Second answer to and again." })).toHaveCount(1, {
    timeout: 15_000,
  });
  // Sent: nothing is kept for the next reload.
  await expect(panel.getByLabel("Message", { exact: true })).toHaveValue("");
  await page.reload();
  await expect(messages.filter({ hasText: "Second answer to and again." })).toHaveCount(1, {
    timeout: 15_000,
  });
  await expect(panel.getByLabel("Message", { exact: true })).toHaveValue("");

  // New run drops the followed run: a reload then shows the form.
  await panel.getByRole("button", { name: "New run" }).click();
  await expect(panel.getByRole("button", { name: "Start run" })).toBeVisible();
  await page.reload();
  await expect(panel.getByRole("button", { name: "Start run" })).toBeVisible({ timeout: 15_000 });

  // A kept run whose thread is gone (another tab deleted the project's threads, say) is dropped.
  await page.evaluate((projectId) => {
    const key = `tandem:playground:${projectId}`;
    const kept = JSON.parse(window.sessionStorage.getItem(key) ?? "{}");
    const gone = "00000000-0000-4000-8000-000000000000";
    window.sessionStorage.setItem(
      key,
      JSON.stringify({ ...kept, run: { rootId: gone, agentId: "assistant" } }),
    );
  }, id);
  await page.reload();
  await expect(panel.getByRole("button", { name: "Start run" })).toBeVisible({ timeout: 15_000 });
});

/** The asset example with every scripted step slowed down, so the child runs for several seconds. */
function slowAssetBundle() {
  const bundle = structuredClone(assetExampleBundle);
  for (const model of bundle.models) {
    model.script = model.script?.map((step) => ({
      ...step,
      delayMs: model.name === "orchestrator_model" ? 300 : 3000,
    }));
  }
  return bundle;
}

test("runs the asset example: the overlay badges the running child, its edge animates, the tree lists it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await importProject(page, "Playground overlay", slowAssetBundle());
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(2, { timeout: 15_000 });
  await expect(page.getByTestId("run-overlay")).toHaveCount(0);

  // The selected agent node is the default; a dual_ai node is not runnable, so the orchestrator is.
  await agentNode(page, "asset_subagent").click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const panel = playground(page);
  await expect(panel.getByLabel("Agent")).toHaveValue("orchestrator");
  await expect(panel.getByTestId("playground-version")).toContainText(/Runs the saved version v\d+/);
  await panel.getByLabel("First message").fill("a blue shield");
  await panel.getByRole("button", { name: "Start run", exact: true }).click();

  // While the child works: its agent node's badge counts it as running, the subagent edge animates.
  const childBadge = runBadge(page, "asset_subagent");
  await expect(childBadge).toHaveAttribute("data-running", "1", { timeout: 20_000 });
  await expect(childBadge).toContainText("1 running");
  const runningEdge = page.locator(".react-flow__edge.studio-edge-running");
  await expect(
    page.locator(".react-flow__edge.studio-edge-subagent.studio-edge-running.animated"),
  ).toHaveCount(1);
  await expect(runBadge(page, "orchestrator")).toHaveAttribute("data-live", "1");
  // The status line follows the run (polled every second while the playground follows one).
  await expect(page.getByTestId("runtime-load")).toContainText(/\d+ running/, { timeout: 3_000 });
  // Fitted again in the narrower pane (too wide for it, so from its left edge, where the entry agent
  // is), with room above the top cards for their run badges.
  const pane = await page.locator(".react-flow__pane").boundingBox();
  const orchestrator = await agentNode(page, "orchestrator").boundingBox();
  expect(orchestrator && pane ? orchestrator.x - pane.x : -1).toBeGreaterThanOrEqual(0);
  for (const badge of await page.getByTestId("run-overlay").all()) {
    const box = await badge.boundingBox();
    expect(box && pane ? box.y - pane.y : -1).toBeGreaterThanOrEqual(0);
  }
  const tree = panel.getByRole("tree");
  await expect(tree.getByRole("treeitem").filter({ hasText: "asset_subagent" })).toHaveCount(1);
  await expect(tree.getByRole("treeitem")).toHaveCount(2);
  // The reviewer side takes its turn: the badge follows the side.
  await expect(childBadge).toHaveAttribute("data-side", "b", { timeout: 15_000 });
  await expect(childBadge).toHaveAttribute("title", /side B \(Reviewer\)/);

  await atEachWidth(page, async (width) => {
    await page.getByRole("button", { name: "Fit View" }).click();
    await page.screenshot({ path: `${ARTIFACTS}/studio-playground-${width}.png` });
    // Laid out for 1440 (not again at 1280, where it is shown in part): fitted whole there and wider,
    // edges too — the subagent's routed edges are not cut under the panel.
    if (width >= 1440) {
      await canvasSettled(page);
      expect(await edgesOutsidePane(page), `at ${width}`).toEqual([]);
    }
    const box = await panel.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    const canvas = await page.locator(".react-flow").first().boundingBox();
    expect(canvas?.width ?? 0).toBeGreaterThan(width * 0.45);
  });

  // The child finishes: the edge stops, the badge shows what it did, the orchestrator answers.
  await expect(runningEdge).toHaveCount(0, { timeout: 30_000 });
  await expect(childBadge).toHaveAttribute("data-live", "0");
  await expect(childBadge).toHaveAttribute("data-running", "0");
  await expect(childBadge).toContainText("completed");
  await expect(childBadge).toContainText(/step [1-9]/);
  // The orchestrator, having answered, waits for the user.
  await expect(runBadge(page, "orchestrator")).toContainText("1 idle", { timeout: 15_000 });
  const messages = panel.getByRole("list", { name: "Messages" }).getByTestId("message");
  await expect(messages.filter({ hasText: "The asset is ready:" })).toHaveCount(1, { timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/studio$`));
  // The panel with a finished tree of two threads (axe once the run is quiet: faster on a busy machine).
  await expectNoAxeViolations(page);

  // Selecting the child in the tree shows its transcript (worker and reviewer by their labels).
  await tree.getByRole("treeitem").filter({ hasText: "asset_subagent" }).click();
  await expect(panel.getByText(/Showing/)).toBeVisible();
  await expect(panel.getByRole("list", { name: "Messages" })).toContainText("Draft ready for:");
});
