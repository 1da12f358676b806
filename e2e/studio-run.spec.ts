// Issue 41, the studio's Run: which run, version and agent the playground's controls act on. A kept
// run of an agent the saved canvas no longer has is put aside by Run (the form for the current
// version says so, and the old run stays reachable, marked, with no composer), also across a
// reload; a run of an older version says so above a composer that still works. Selecting a node
// while the playground is open shows its inspector in the panel, the run one click away. Run and
// Start run move the focus into the playground; a skip link and F6 reach it. A tools entry without
// an edge offers no Configure, and an edge undone while selected leaves no hidden selection. The
// status line names what was added. Screenshots at 1280, 1440 and 1920 wide; axe-core on the panel.
// (Fit View showing every card: studio-fit-whole.spec.ts.)
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { assetExampleBundle } from "../lib/standard/examples";
import { chatTemplate, namedWorkersTemplate } from "../lib/studio/templates";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

const playground = (page: Page): Locator => page.getByRole("complementary", { name: "Playground" });
const inspector = (page: Page): Locator => page.getByRole("complementary", { name: "Inspector" });
const runButton = (page: Page): Locator => page.getByRole("button", { name: "Run", exact: true });
const statusLine = (page: Page): Locator => page.getByRole("status", { name: "Studio status" });
const cardTitle = (page: Page, kind: string, name: string): Locator =>
  page
    .locator(`.react-flow__node-${kind}`)
    .filter({ has: page.getByText(name, { exact: true }) })
    .getByText(name, { exact: true });

async function importProject(page: Page, label: string, bundle: unknown): Promise<string> {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  const imported = await page.request.post(`/api/projects/${id}/import`, {
    data: bundle,
    headers: { "content-type": "application/json" },
  });
  expect(imported.status()).toBe(200);
  return id;
}

async function openStudio(page: Page, id: string, agents: number) {
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(agents, { timeout: 15_000 });
}

/** axe-core (WCAG 2 A and AA) on the right-hand panel: no violation at all. */
async function expectPanelAxeClean(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).withTags(["wcag2a", "wcag2aa"]).analyze();
  const findings = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${violation.help} ${node.html}`),
  );
  expect(findings).toEqual([]);
}

async function startRun(page: Page, message?: string) {
  const panel = playground(page);
  if (message) await panel.getByLabel(/First message/).fill(message);
  await panel.getByRole("button", { name: /start run/i }).click();
  await expect(panel.getByTestId("playground-stop-reason")).toContainText("Waiting for your message", {
    timeout: 30_000,
  });
}

async function replaceWithTemplate(page: Page, label: RegExp) {
  await page.getByRole("button", { name: "Templates" }).click();
  await page.getByRole("menu", { name: "Templates" }).getByRole("menuitem", { name: label }).click();
}

async function save(page: Page): Promise<number> {
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(statusLine(page)).toContainText(/Saved v\d+/, { timeout: 15_000 });
  return Number(/Saved v(\d+)/.exec((await statusLine(page).textContent()) ?? "")?.[1]);
}

test("Run never reopens a run of an agent the saved canvas no longer has; a run of an older version says so", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = await importProject(page, "Stale run", namedWorkersTemplate());
  await openStudio(page, id, 3);
  await runButton(page).click();
  const panel = playground(page);
  await startRun(page);
  await expect(panel.getByTestId("playground-agent")).toHaveText("team_lead");
  const oldVersion = Number(
    (await panel.getByTitle("The saved version this run uses").textContent())?.slice(1),
  );
  await panel.getByRole("button", { name: "Close the playground" }).click();

  // Another template replaces the canvas and is saved: the kept run is of an agent that is gone.
  await replaceWithTemplate(page, /Chat assistant/);
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(1);
  const current = await save(page);
  expect(current).toBeGreaterThan(oldVersion);
  // Run's title says what a click does, and the panel does exactly that.
  await expect(runButton(page)).toHaveAttribute(
    "title",
    `Run assistant on v${current} in the playground (the last run, of team_lead, was on v${oldVersion})`,
  );
  await runButton(page).click();
  await expect(panel.getByLabel("Agent")).toHaveValue("assistant");
  await expect(panel.getByRole("button", { name: "Start run", exact: true })).toBeVisible();
  await expect(panel.getByTestId("playground-version")).toContainText(`Runs the saved version v${current}`);
  await expect(panel.getByTestId("playground-previous-run")).toContainText(
    `Your last run here, of team_lead on v${oldVersion}, is from an older canvas (saved now as v${current})`,
  );
  await expect(panel.getByRole("link", { name: /Open that run/ })).toHaveAttribute("href", /^\/threads\//);
  await expect(panel.getByLabel("Message", { exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/studio-run-previous-run-1280.png` });
  await expectPanelAxeClean(page, "#studio-playground");

  // Shown again on request: marked as the old canvas's, with no composer onto team_lead.
  await panel.getByRole("button", { name: "Show it here" }).click();
  const stale = panel.getByTestId("playground-stale");
  await expect(stale).toContainText(
    `This run of team_lead is from v${oldVersion}, and v${current} has no team_lead to chat with.`,
    { timeout: 15_000 },
  );
  await expect(panel.getByLabel("Message", { exact: true })).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/studio-run-stale-run-1280.png` });
  await expectPanelAxeClean(page, "#studio-playground");
  // The same after a reload (the playground's session keeps the run and its version).
  await page.reload();
  await expect(stale).toContainText(`v${current} has no team_lead to chat with`, { timeout: 15_000 });
  await expect(panel.getByLabel("Message", { exact: true })).toHaveCount(0);
  await expect(runButton(page)).toHaveAttribute("title", "Close the playground");

  // Its action starts over on the current version; the new run's composer takes the focus.
  await stale.getByRole("button", { name: `New run on v${current}` }).click();
  await expect(panel.getByLabel(/First message/)).toBeFocused();
  await startRun(page, "hello");
  await expect(panel.getByTestId("playground-agent")).toHaveText("assistant");
  await expect(panel.getByLabel("Message", { exact: true })).toBeFocused();
  await expect(panel.getByTestId("playground-stale")).toHaveCount(0);

  // A saved edit while the run goes on: the run is of an older version, says so, and still chats.
  await page.getByRole("button", { name: "Add note", exact: true }).click();
  await inspector(page).getByRole("button", { name: "Back to the playground" }).click();
  const next = await save(page);
  await expect(stale).toHaveText(
    new RegExp(
      `This run is from v${current}; the canvas is saved as v${next}\\. Run starts a new run on v${next}\\.`,
    ),
  );
  await expect(panel.getByLabel("Message", { exact: true })).toBeVisible();
  // Closed and opened again by Run: a new run on the saved version, as the notice said.
  await panel.getByRole("button", { name: "Close the playground" }).click();
  await expect(runButton(page)).toHaveAttribute(
    "title",
    /^Run assistant on v\d+ in the playground \(the last run, of assistant, was on v\d+\)$/,
  );
  await runButton(page).click();
  await expect(panel.getByRole("button", { name: "Start run", exact: true })).toBeVisible();
  await expect(panel.getByTestId("playground-previous-run")).toContainText(`of assistant on v${current}`);
});

test("selecting a node while the playground is open shows its inspector; the run is one click away", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = await importProject(page, "Inspector beside run", chatTemplate());
  await openStudio(page, id, 1);
  await runButton(page).click();
  const panel = playground(page);
  await startRun(page, "hi");
  const messages = panel.getByRole("list", { name: "Messages" }).getByTestId("message");
  await expect(messages.filter({ hasText: "hi" }).first()).toBeVisible();
  await panel.getByLabel("Message", { exact: true }).fill("half typed");

  await atEachWidth(page, async (width) => {
    await page.getByRole("button", { name: "Fit View" }).click();
    await cardTitle(page, "prompt", "assistant_chat").click();
    await expect(inspector(page).getByLabel("Name", { exact: true })).toHaveValue("assistant_chat");
    await expect(panel).toBeHidden();
    await page.screenshot({ path: `${ARTIFACTS}/studio-run-inspector-in-panel-${width}.png` });
    await expectPanelAxeClean(page, "[data-studio-region='side-panel']");
    // The inspector's panel sits inside the window, beside the canvas.
    const box = await inspector(page).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    // One click back: the same run, the unsent text still there.
    await inspector(page).getByRole("button", { name: "Back to the playground" }).click();
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId("playground-agent")).toHaveText("assistant");
    await expect(panel.getByLabel("Message", { exact: true })).toHaveValue("half typed");
    await page.screenshot({ path: `${ARTIFACTS}/studio-run-playground-${width}.png` });
  });
  // The playground's own button shows the inspector too; clearing the selection brings the run back.
  await panel.getByRole("button", { name: "Inspector", exact: true }).click();
  await expect(inspector(page)).toBeVisible();
  await page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
  await expect(panel).toBeVisible();
});

test("Run moves the focus into the playground; a skip link and F6 reach it, listed with the shortcuts", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await importProject(page, "Playground keyboard", chatTemplate());
  await openStudio(page, id, 1);
  await runButton(page).focus();
  await page.keyboard.press("Enter");
  const panel = playground(page);
  await expect(panel.getByLabel(/First message/)).toBeFocused();
  await page.keyboard.type("hello");
  await page.keyboard.press("Enter");
  await expect(panel.getByLabel("Message", { exact: true })).toBeFocused({ timeout: 30_000 });

  // From the top of the page, the skip link is among the first few stops and lands in the composer.
  await page.reload();
  await expect(panel.getByTestId("playground-agent")).toHaveText("assistant", { timeout: 15_000 });
  // From the top of the page (its first stop, the logo), the skip link is within a dozen Tab stops:
  // past the header's links (logo, breadcrumb, the five project sections). Tried again whole if the
  // page moved the focus meanwhile (the playground takes it once its run has loaded).
  const skip = page.getByRole("button", { name: /Skip to the playground/ });
  await expect(async () => {
    await page.getByRole("link", { name: "Tandem", exact: true }).focus();
    const stops: string[] = [];
    for (let presses = 0; presses < 12; presses++) {
      if (await skip.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press("Tab");
      stops.push(await page.evaluate(() => document.activeElement?.textContent?.slice(0, 30) ?? "none"));
    }
    expect(await skip.evaluate((element) => element === document.activeElement), stops.join(" | ")).toBe(
      true,
    );
  }).toPass({ timeout: 20_000 });
  await expect(skip).toBeInViewport();
  await page.screenshot({ path: `${ARTIFACTS}/studio-run-skip-link-1440.png` });
  await page.keyboard.press("Enter");
  await expect(panel.getByLabel("Message", { exact: true })).toBeFocused();

  // F6 moves area by area: from the canvas to the playground's composer, Shift+F6 back.
  await page.locator(".react-flow__node").first().focus();
  await page.keyboard.press("F6");
  await expect(panel.getByLabel("Message", { exact: true })).toBeFocused();
  await page.keyboard.press("Shift+F6");
  await expect
    .poll(() =>
      page.evaluate(() =>
        document.activeElement?.closest("[data-studio-region]")?.getAttribute("data-studio-region"),
      ),
    )
    .toBe("canvas");

  await page.keyboard.press("Escape");
  await page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog.getByRole("row", { name: /Go to the next area/ })).toContainText("F6");
  await expect(dialog.getByRole("row", { name: /Go to the previous area/ })).toContainText("Shift+F6");
  await expect(dialog).toContainText("Skip to the playground");
});

test("an edge undone while selected leaves nothing hidden selected; a tools entry with no edge offers no Configure", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await importProject(page, "Configure entries", assetExampleBundle);
  await openStudio(page, id, 2);
  await page.getByRole("button", { name: "Fit View" }).click();
  await cardTitle(page, "prompt", "asset_reviewer").click();
  const panel = inspector(page);
  await expect(panel.getByLabel("Name", { exact: true })).toHaveValue("asset_reviewer");
  const tools = panel.getByRole("list", { name: "Prompt tools" });

  // An entry added now, configured, then undone: the edge is gone and nothing stays selected.
  const add = panel.getByLabel("Add callable", { exact: true });
  const option = await add.locator("option").nth(1).getAttribute("value");
  expect(option).toBeTruthy();
  await add.selectOption(option ?? "");
  await tools.getByRole("button", { name: `Configure ${option}` }).click();
  await expect(panel).toContainText(/in the tools of asset_reviewer|called by asset_reviewer/);
  await page.locator(".react-flow__pane").focus();
  await page.keyboard.press("Control+z");
  await expect(panel).toContainText("Select a node or an edge to edit it.");
  await expect(panel).not.toContainText("This edge has no settings");

  // approve_asset is a lifecycle tool with no node: listed, with no edge to configure.
  await cardTitle(page, "prompt", "asset_reviewer").click();
  await expect(tools).toContainText("approve_asset");
  await expect(tools.getByRole("button", { name: "Configure approve_asset" })).toHaveCount(0);
  await expect(tools.getByTitle("No node on the canvas, so no edge to configure").first()).toBeVisible();
});

test("the status line names an added node by its kind and name, never its id", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = await importProject(page, "Added names", chatTemplate());
  await openStudio(page, id, 1);
  const add = (kind: string) => page.getByRole("button", { name: `Add ${kind}`, exact: true }).click();
  const name = inspector(page).getByLabel("Name", { exact: true });
  await add("prompt");
  const first = await name.inputValue();
  expect(first).toMatch(/^prompt/);
  await expect(statusLine(page)).toHaveText(`Added prompt ${first}`);
  // Renamed, its card keeps the id it was made with: the next new prompt takes the name, and the
  // status line says that name, not the id made unique (prompt:prompt_1#2).
  await name.fill("drafts");
  await add("prompt");
  await expect(name).toHaveValue(first);
  await expect(statusLine(page)).toHaveText(`Added prompt ${first}`);
  await add("note");
  await expect(statusLine(page)).toHaveText("Added a note");
});
