// Studio polish: browser Back/Forward with unsaved edits asks first and the draft comes back; the code
// pane follows the canvas selection without taking focus or jumping while the user types; keyboard
// focus shows on cards and edges; long names wrap or end in an ellipsis; and the studio and the
// thread page in the dark theme pass axe (WCAG 2 AA), menus and dialogs included.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { observableAssetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1440, height: 900 } });
// About 15 s each on an idle machine; the margin is for a loaded shared CI runner.
test.describe.configure({ timeout: 90_000 });

const inspector = (page: Page) => page.getByRole("complementary", { name: "Inspector" });
const unsaved = (page: Page) => page.getByTestId("unsaved-changes");
const leaveDialog = (page: Page) => page.getByRole("dialog", { name: "Leave with unsaved changes?" });
const editor = (page: Page) => page.getByRole("textbox", { name: "TypeScript code" });
const followed = (page: Page) => page.locator(".cm-line[data-followed]");

async function createProject(page: Page, label: string): Promise<string> {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function applyTemplate(page: Page, name: RegExp, nodes: number) {
  await page.getByRole("button", { name: "Templates" }).click();
  await page.getByRole("menu", { name: "Templates" }).getByRole("menuitem", { name }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(nodes);
  // The template is laid out and fitted to the view a frame later; these tests click cards, so they
  // fit the view themselves once it holds still (once in about five runs the template's own fit did
  // not apply and the card clicked was out of view: an open question, noted in docs/studio.md).
  const viewport = page.locator(".react-flow__viewport");
  await expect
    .poll(async () => {
      const before = await viewport.getAttribute("style");
      await page.waitForTimeout(200);
      return (await viewport.getAttribute("style")) === before;
    })
    .toBe(true);
  await page.getByRole("button", { name: "Fit View" }).click();
}

/** Fails on any WCAG 2 A/AA violation on the page, listing each with the elements it hits. */
async function expectAccessible(page: Page) {
  // Floating UI's focus guards (aria-hidden spans that only hand the focus on) are a known false
  // positive of aria-hidden-focus: floating-ui/floating-ui#2462, dequelabs/axe-core#4832.
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa"])
    .exclude("[data-floating-ui-focus-guard]")
    .analyze();
  const found = axe.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(found).toEqual([]);
}

test("browser Back with unsaved edits asks first; leaving keeps the draft, which Forward restores", async ({
  page,
}) => {
  const id = await createProject(page, "Back guard");
  await page.goto(`/projects/${id}`);
  await page.getByRole("link", { name: "Open studio" }).click();
  await page.getByRole("button", { name: "Add model", exact: true }).click();
  await inspector(page).getByLabel("Name", { exact: true }).fill("kept_on_back");
  await expect(unsaved(page)).toHaveAttribute("data-draft", "kept");
  const node = page.locator(".react-flow__node-model").filter({ hasText: "kept_on_back" });

  // Back asks and stays put; Stay keeps the edits, and the next Back asks again.
  await page.goBack();
  await expect(leaveDialog(page)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/studio$`));
  await expect(node).toBeVisible();
  await leaveDialog(page).getByRole("button", { name: "Stay" }).click();
  await expect(leaveDialog(page)).toBeHidden();
  await page.goBack();
  await expect(leaveDialog(page)).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/studio-back-guard.png` });

  // Leave goes back to the project page; Forward returns to the studio with the draft restored.
  await leaveDialog(page).getByRole("button", { name: "Leave", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}$`));
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/studio$`));
  await expect(page.getByRole("region", { name: "Restored draft" })).toContainText(
    "Restored unsaved changes",
  );
  await expect(node).toBeVisible();

  // Saved: one Back leaves without asking (the sentinel entry costs no extra step).
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(unsaved(page)).toBeHidden();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}$`));
  await expect(leaveDialog(page)).toBeHidden();
});

test("the code pane follows the selected node without taking focus or jumping while the user types", async ({
  page,
}) => {
  const id = await createProject(page, "Code follows");
  await page.goto(`/projects/${id}/studio`);
  await applyTemplate(page, /Orchestrator \+ asset subagent/, 12);
  await expect(editor(page)).toContainText("export const orchestrator = defineAgent({");

  // A model near the end of the code: its whole declaration is highlighted and scrolled into view.
  await page.locator(".react-flow__node-model").filter({ hasText: "reviewer_model" }).click();
  await expect(followed(page).first()).toHaveText("export const reviewer_model = defineModel({");
  await expect(followed(page).last()).toHaveText("});");
  await expect(followed(page).first()).toBeInViewport();
  await expect(editor(page)).not.toBeFocused();
  await page.screenshot({ path: `${ARTIFACTS}/studio-code-follows.png` });

  // Another node moves the highlight; nothing is highlighted with no single node selected.
  await page.locator(".react-flow__node-agent").filter({ hasText: "orchestrator" }).first().click();
  await expect(followed(page).first()).toHaveText("export const orchestrator = defineAgent({");
  await expect(followed(page).first()).toBeInViewport();
  await page.locator(".react-flow__pane").click({ position: { x: 10, y: 10 } });
  await expect(followed(page)).toHaveCount(0);

  // Select a node, then type far below its declaration: applying the typing does not scroll back.
  await page.locator(".react-flow__node-agent").filter({ hasText: "orchestrator" }).first().click();
  await expect(followed(page).first()).toBeInViewport();
  // CodeMirror draws only the lines in view: scroll to the end of the code to reach a tool's line.
  const scroller = page.locator(".cm-scroller");
  await scroller.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  const line = page.locator(".cm-line", { hasText: 'description: "Read a file from this thread' });
  await line.click();
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type(" now");
  const before = await scroller.evaluate((element) => element.scrollTop);
  expect(before).toBeGreaterThan(0);
  await expect(page.getByRole("status", { name: "Studio status" })).toHaveText(
    "Applied the code to the canvas",
  );
  await expect(editor(page)).toBeFocused();
  expect(await scroller.evaluate((element) => element.scrollTop)).toBe(before);
  // The highlight stayed on the selected node (CodeMirror draws it once its lines are in view).
  await scroller.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(followed(page).first()).toHaveText("export const orchestrator = defineAgent({");
});

test("the studio in the dark theme passes axe with its menus and dialogs open", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  const id = await createProject(page, "Dark studio");
  await page.goto(`/projects/${id}/studio`);
  await applyTemplate(page, /Orchestrator \+ asset subagent/, 12);
  // The page really is dark (the theme follows the system setting).
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe("rgb(20, 20, 19)");
  // Reduced motion (the system setting) stops every endless pulse and spin: one short run, no loop.
  const pulse = () =>
    page.evaluate(() => {
      const probe = document.createElement("span");
      probe.className = "animate-pulse";
      document.body.append(probe);
      const { animationIterationCount } = getComputedStyle(probe);
      probe.remove();
      return animationIterationCount;
    });
  expect(await pulse()).toBe("infinite");
  await page.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
  expect(await pulse()).toBe("1");
  await page.emulateMedia({ colorScheme: "dark", reducedMotion: "no-preference" });
  await page.locator(".react-flow__node-prompt").first().click();
  await page.screenshot({ path: `${ARTIFACTS}/studio-dark.png` });
  await expectAccessible(page);

  await page.getByRole("button", { name: "Export", exact: true }).click();
  await expect(page.getByRole("menu", { name: "Export" })).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/studio-dark-export.png` });
  await expectAccessible(page);
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Models" }).click();
  const models = page.getByRole("dialog").first();
  await expect(models).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/studio-dark-models.png` });
  await expectAccessible(page);
});

test("keyboard focus on a card and on an edge is visible, and the zoom controls tab in on-screen order", async ({
  page,
}) => {
  const id = await createProject(page, "Canvas focus");
  await page.goto(`/projects/${id}/studio`);
  await applyTemplate(page, /chat assistant/i, 3);

  // Zoom in, zoom out, fit, lock: top to bottom on screen, and in that order for Tab.
  const controls = ["Zoom In", "Zoom Out", "Fit View", "Toggle Interactivity"];
  const tops: number[] = [];
  for (const name of controls) {
    const box = await page.getByRole("button", { name, exact: true }).boundingBox();
    tops.push(box?.y ?? Number.NaN);
  }
  expect([...tops].sort((a, b) => a - b)).toEqual(tops);
  await page.getByRole("button", { name: "Zoom In", exact: true }).focus();
  for (const name of controls.slice(1)) {
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name, exact: true })).toBeFocused();
  }

  // Shift+Tab back from the controls reaches the cards, then the edges; each shows a focus ring.
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement;
      if (!element) return "none";
      if (element.classList.contains("react-flow__node")) return "node";
      if (element.classList.contains("react-flow__edge")) return "edge";
      return "other";
    });
  const shiftTabTo = async (kind: "node" | "edge") => {
    for (let step = 0; step < 20 && (await focused()) !== kind; step++)
      await page.keyboard.press("Shift+Tab");
    expect(await focused()).toBe(kind);
  };
  await page.getByRole("button", { name: "Zoom In", exact: true }).focus();
  await shiftTabTo("node");
  const card = page.locator(".react-flow__node:focus");
  await expect(card).toHaveCSS("outline-style", "solid");
  await expect(card).toHaveCSS("outline-width", "2px");
  await expect(card).toHaveCSS("outline-color", "rgb(59, 91, 219)");
  await page.screenshot({ path: `${ARTIFACTS}/studio-focus-node.png` });
  // Enter selects the focused card.
  await page.keyboard.press("Enter");
  await expect(card).toHaveClass(/selected/);

  await shiftTabTo("edge");
  const halo = page.locator(".react-flow__edge:focus .react-flow__edge-interaction");
  await expect(halo).toHaveCSS("stroke-opacity", "0.45");
  await expect(halo).toHaveCSS("stroke", "rgb(59, 91, 219)");
  // Unfocused edges keep their invisible hit path.
  await expect(page.locator(".react-flow__edge:not(:focus) .react-flow__edge-interaction").first()).toHaveCSS(
    "stroke-opacity",
    "0",
  );
  await page.screenshot({ path: `${ARTIFACTS}/studio-focus-edge.png` });
  await expectAccessible(page);
});

test("a 120-character name wraps or ends in an ellipsis: nothing runs off the inspector, Problems or the breadcrumb", async ({
  page,
}) => {
  const projectName = `A project whose name goes on and on ${"and on ".repeat(20)}${Date.now()}`;
  const created = await page.request.post("/api/projects", { data: { name: projectName } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  await page.goto(`/projects/${id}/studio`);
  await applyTemplate(page, /chat assistant/i, 3);
  await page.locator(".react-flow__node-prompt").click();
  const longName = `assistant_chat_${"x".repeat(105)}`;
  expect(longName).toHaveLength(120);
  await inspector(page).getByLabel("Name", { exact: true }).fill(longName);
  const problems = page.getByRole("region", { name: "Problems" });
  await expect(
    problems.getByRole("button", { name: new RegExp(`prompt ${longName}`) }).first(),
  ).toBeVisible();

  const overflows = (selector: string) =>
    page
      .locator(selector)
      .evaluateAll((elements) =>
        elements
          .filter((element) => element.scrollWidth > element.clientWidth + 1)
          .map((element) => element.outerHTML.slice(0, 120)),
      );
  for (const width of [1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    // No horizontal overflow: the inspector's messages wrap, and so do Problems' rows.
    expect(await overflows('aside[aria-label="Inspector"]')).toEqual([]);
    expect(await overflows('section[aria-label="Problems"] ul')).toEqual([]);
    // Each Problems row keeps its layout: severity and owner side by side on its first line, the
    // owner cut with an ellipsis and named in full in its tooltip.
    const row = problems.getByRole("button", { name: new RegExp(`prompt ${longName}`) }).first();
    const [severity, owner] = [row.locator("span").nth(0), row.locator("span").nth(1)];
    const severityBox = await severity.boundingBox();
    const ownerBox = await owner.boundingBox();
    expect(Math.abs((severityBox?.y ?? 0) - (ownerBox?.y ?? 100))).toBeLessThan(2);
    await expect(owner).toHaveAttribute("title", `prompt ${longName}`);
    expect(await owner.evaluate((element) => getComputedStyle(element).textOverflow)).toBe("ellipsis");

    // The breadcrumb: the page's own crumb whole, the project name cut, in full on hover.
    const current = page.getByRole("navigation", { name: "Breadcrumb" }).locator('[aria-current="page"]');
    await expect(current).toHaveText("studio");
    expect(await current.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const project = page
      .getByRole("navigation", { name: "Breadcrumb" })
      .getByRole("link", { name: projectName });
    await expect(project).toHaveAttribute("title", projectName);
    const header = await page.locator("header").boundingBox();
    const crumb = await current.boundingBox();
    expect((crumb?.x ?? Number.POSITIVE_INFINITY) + (crumb?.width ?? 0)).toBeLessThanOrEqual(
      (header?.x ?? 0) + (header?.width ?? 0),
    );
    // Under 1920 px there is no room for all of the name's ~190 characters: it is the one cut.
    if (width < 1920) {
      expect(await project.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    }
    await page.screenshot({ path: `${ARTIFACTS}/studio-long-name-${width}.png` });
  }
  await expectAccessible(page);
});

test("the thread page in the dark theme passes axe", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  const created = await page.request.post("/api/projects", {
    data: { name: `Dark thread ${Date.now()}`, definitions: observableAssetBundle(300) },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const started = await page.request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "orchestrator", message: "Draw a potion." },
  });
  expect(started.ok()).toBe(true);
  const { threadId } = (await started.json()) as { threadId: string };
  await page.goto(`/threads/${threadId}`);
  const child = page.getByRole("tree", { name: "Threads" }).getByRole("treeitem", { name: /asset_subagent/ });
  await expect(child).toHaveAttribute("data-status", /^(completed|idle|stopped|failed)$/, {
    timeout: 30_000,
  });
  await page.screenshot({ path: `${ARTIFACTS}/thread-dark.png` });
  await expectAccessible(page);
});
