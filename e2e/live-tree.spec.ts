// The thread page's live tree and timeline: a run with named children shows each child by its name in
// the tree and the timeline (whole names in the tooltip and the accessible name), a child that hit its
// turn limit says so beside its status (tree, header, thread list), the tree works from the keyboard
// (WAI-ARIA tree: arrows, expand and collapse), a timeline bar's tooltip and click, no axe violations,
// and screenshots at 1280, 1440 and 1920 wide. Scripted models with delays keep the run watchable.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";
import { assetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";
const LIMIT_REASON = "Reached max session turns (2 exchanges)";

/** An orchestrator that starts two named asset workers and a debate that only its turn limit ends. */
function namedChildrenBundle() {
  const bundle = assetBundle({
    config: { blocking: false, initUserMessageProperty: "task", initAgentNameProperty: "name" },
    orchestratorScript: [
      {
        toolCalls: [
          { name: "asset_subagent", args: { task: "the main emblem", name: "logo-designer: main emblem" } },
          { name: "asset_subagent", args: { task: "the hero banner", name: "banner-painter: hero banner" } },
          { name: "debate_subagent", args: { task: "tabs or spaces", name: "endless-debate" } },
        ],
      },
      { text: "Started three." },
    ],
    workerScript: [{ text: "Draft: {{input}}", delayMs: 1200 }],
    reviewerScript: [
      {
        delayMs: 1200,
        toolCalls: [{ name: "approve_asset", args: { summary: "Approved {{input}}" } }],
      },
    ],
    extra: {
      agents: [
        {
          name: "debate_subagent",
          type: "dual_ai",
          maxSessionTurns: 2,
          exposeAsTool: true,
          toolDescription: "Argues both sides.",
          sideA: { label: "Pro", prompt: "debate_pro", stopOnResponse: false },
          sideB: { label: "Con", prompt: "debate_con", stopOnResponse: false },
        },
      ],
      prompts: [
        {
          name: "debate_pro",
          toolDescription: "Pro",
          prompt: "Argue for.",
          model: "debate_model",
          includeChat: true,
        },
        {
          name: "debate_con",
          toolDescription: "Con",
          prompt: "Argue against.",
          model: "debate_model",
          includeChat: true,
        },
      ],
      models: [
        {
          name: "debate_model",
          provider: "scripted",
          model: "s",
          script: [{ text: "I disagree.", delayMs: 300 }],
        },
      ],
    },
  });
  // The orchestrator may call both subagents.
  const prompts = (bundle.prompts as Record<string, unknown>[]).map((prompt) =>
    prompt.name === "orchestrator_chat"
      ? {
          ...prompt,
          tools: [
            ...(prompt.tools as unknown[]),
            {
              name: "debate_subagent",
              blocking: false,
              initUserMessageProperty: "task",
              initAgentNameProperty: "name",
            },
          ],
        }
      : prompt,
  );
  return { ...bundle, prompts };
}

async function startRun(request: APIRequestContext): Promise<{ projectId: string; rootId: string }> {
  const created = await request.post("/api/projects", {
    data: { name: `Live tree ${Date.now()}`, definitions: namedChildrenBundle() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const started = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "orchestrator", message: "three jobs" },
  });
  expect(started.status(), await started.text()).toBe(201);
  return { projectId, rootId: ((await started.json()) as { threadId: string }).threadId };
}

const tree = (page: Page) => page.getByRole("tree", { name: "Threads" });
const item = (page: Page, name: RegExp) => tree(page).getByRole("treeitem", { name });
const timeline = (page: Page) => page.getByRole("list", { name: "Timeline of the threads" });

test("shows named children, their stop reasons and a timeline, and works from the keyboard", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { projectId, rootId } = await startRun(request);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${rootId}`);

  // Every child by its own name, visible in full at this width.
  const logo = item(page, /^logo-designer: main emblem/);
  const banner = item(page, /^banner-painter: hero banner/);
  const debate = item(page, /^endless-debate/);
  await expect(tree(page).getByRole("treeitem")).toHaveCount(4);
  for (const name of ["logo-designer: main emblem", "banner-painter: hero banner", "endless-debate"])
    await expect(tree(page).getByTestId("tree-name").filter({ hasText: name })).toBeVisible();
  await expect(logo).toContainText("asset_subagent");
  await expect(logo).toContainText("non-blocking");
  await expect(logo).toHaveAttribute("aria-level", "2");

  // The debate ends at its turn limit, and says so beside its status.
  await expect(debate).toHaveAttribute("data-status", "stopped", { timeout: 20_000 });
  await expect(debate.getByTestId("tree-status-detail")).toHaveText(LIMIT_REASON);
  await expect(debate.getByTestId("tree-status-detail")).toBeVisible();
  await expect(logo).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await expect(banner).toHaveAttribute("data-status", "completed", { timeout: 20_000 });

  // Keyboard: the root holds the tab stop; Down walks the children, Left/Right close and open.
  const root = item(page, /^orchestrator/);
  await root.focus();
  await expect(root).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowDown");
  // The first child row (children spawned in one batch may list in either order).
  const firstChild = tree(page).locator('[role=treeitem][aria-level="2"][aria-posinset="2"]');
  await expect(firstChild).toHaveAttribute("aria-selected", "true");
  await expect(firstChild).toBeFocused();
  await page.keyboard.press("End");
  await expect(debate).toBeFocused();
  const header = page.getByRole("region", { name: "Selected thread" }).locator("header");
  await expect(header.getByTestId("thread-status-detail")).toHaveText(LIMIT_REASON);
  await page.keyboard.press("ArrowLeft");
  await expect(root).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(root).toHaveAttribute("aria-expanded", "false");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(1);
  await page.keyboard.press("ArrowRight");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(4);
  await page.keyboard.press("ArrowRight");
  await expect(firstChild).toBeFocused();

  // The timeline: one row per thread in the tree's order, named children, a tooltip, a click selects.
  await page.getByRole("tab", { name: "Timeline" }).click();
  await expect(timeline(page).getByRole("listitem")).toHaveCount(4);
  for (const name of ["logo-designer: main emblem", "banner-painter: hero banner", "endless-debate"])
    await expect(timeline(page).getByText(name, { exact: true })).toBeVisible();
  // The legend says what the colours mean, with a count per status: the four threads in all.
  const legend = page.getByRole("list", { name: "Timeline legend" });
  await expect(legend.locator('[data-status="stopped"]')).toHaveText(/stopped\s*1$/);
  const legendCounts = await legend
    .getByRole("listitem")
    .evaluateAll((items) => items.map((item) => Number(item.textContent?.match(/(\d+)$/)?.[1] ?? 0)));
  expect(legendCounts.reduce((sum, count) => sum + count, 0)).toBe(4);
  const debateBar = timeline(page).getByRole("button", { name: /^endless-debate.*stopped/ });
  await expect(debateBar).toHaveAccessibleName(new RegExp(LIMIT_REASON.replace(/[()]/g, "\\$&")));
  await debateBar.hover();
  const tooltip = page.getByRole("tooltip");
  await expect(tooltip).toContainText("endless-debate");
  await expect(tooltip).toContainText(LIMIT_REASON);
  await expect(tooltip).toContainText(/\d+s · [\d.k]+ in · [\d.k]+ out/);
  await timeline(page)
    .getByRole("button", { name: /^banner-painter/ })
    .click();
  await expect(banner).toHaveAttribute("aria-selected", "true");
  await expect(header).toContainText("banner-painter: hero banner");

  // The thread list says why the debate stopped, too.
  await page.goto(`/projects/${projectId}?roots_only=false`);
  const listed = page.getByRole("list", { name: "All threads" }).getByRole("listitem");
  await expect(listed).toHaveCount(4);
  await expect(listed.filter({ hasText: "debate_subagent" }).getByTestId("thread-status-detail")).toHaveText(
    LIMIT_REASON,
  );
});

test("reads well at 1280, 1440 and 1920 wide and has no axe violations", async ({ page, request }) => {
  // Six screenshots and two axe passes: about 30 s on a quiet machine, far more on a loaded one.
  test.setTimeout(180_000);
  const { rootId } = await startRun(request);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${rootId}`);
  const debate = item(page, /^endless-debate/);
  await expect(debate).toHaveAttribute("data-status", "stopped", { timeout: 20_000 });
  await expect(tree(page).getByRole("treeitem", { name: /completed/ })).toHaveCount(2, { timeout: 20_000 });
  await page.getByRole("tab", { name: "Timeline" }).click();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await page.getByRole("tab", { name: "Transcript" }).click();
  const axeTranscript = await new AxeBuilder({ page }).include("[aria-label='Live tree']").analyze();
  expect(axeTranscript.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  const debateBar = timeline(page).getByRole("button", { name: /^endless-debate.*stopped/ });
  await atEachWidth(page, async (width) => {
    await page.getByRole("tab", { name: "Timeline" }).click();
    // Focus shows the tooltip as hovering does (the pointer is tested in the first test).
    await debateBar.focus();
    await expect(page.getByRole("tooltip")).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `${ARTIFACTS}/live-tree-timeline-${width}.png` });
    await page.getByRole("tab", { name: "Transcript" }).click();
    await page.screenshot({ path: `${ARTIFACTS}/live-tree-${width}.png` });
    // Names and the stop reason are not cut at any of these widths.
    const cut = tree(page).locator("[data-testid=tree-name], [data-testid=tree-status-detail]");
    for (const text of await cut.all())
      expect(await text.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });
});
