// The node palette and placement at a laptop's 1280 × 800: search filters the palette, a kind
// dragged onto the canvas lands at the drop point, toolbar adds land inside the visible canvas
// (not under the bottom panel), three nodes align left in one undo step, and the studio with its
// palette is photographed at 1280, 1440 and 1920 wide.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1280, height: 800 } });

async function openEmptyStudio(page: Page): Promise<string> {
  const created = await page.request.post("/api/projects", { data: { name: `Palette ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node")).toHaveCount(0);
  return id;
}

const palette = (page: Page) => page.getByRole("complementary", { name: "Node palette" });
const entries = (page: Page) => palette(page).getByRole("list", { name: "Node kinds" }).getByRole("listitem");

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not visible");
  return found;
}

test("palette: search, drag onto the canvas, adds in view, align three nodes left and undo", async ({
  page,
}) => {
  await openEmptyStudio(page);
  // At 1280 wide the palette starts as a rail of icons so the canvas keeps its room; it expands.
  await expect(palette(page).getByRole("searchbox")).toHaveCount(0);
  await expect(entries(page)).toHaveCount(7);
  await palette(page).getByRole("button", { name: "Expand the node palette" }).click();
  const search = palette(page).getByRole("searchbox", { name: "Search node kinds" });

  await search.fill("http");
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page)).toContainText("HTTP tool");
  await search.fill("dual");
  await expect(entries(page)).toHaveText([/Dual-AI agent/]);
  await search.fill("nothing like this");
  await expect(entries(page)).toHaveCount(0);
  await expect(palette(page).getByRole("status")).toContainText("No node kind matches");
  await search.fill("");
  await expect(entries(page)).toHaveCount(7);

  // Drag a prompt onto the canvas: the node appears under the drop point.
  const pane = page.locator(".react-flow__pane");
  const paneBox = await box(pane);
  const drop = { x: 180, y: 120 };
  await palette(page).locator('[data-palette-entry="prompt"]').dragTo(pane, { targetPosition: drop });
  const dropped = page.locator(".react-flow__node-prompt");
  await expect(dropped).toHaveCount(1);
  const droppedBox = await box(dropped);
  const pointer = { x: paneBox.x + drop.x, y: paneBox.y + drop.y };
  expect(pointer.x).toBeGreaterThan(droppedBox.x);
  expect(pointer.x).toBeLessThan(droppedBox.x + droppedBox.width);
  expect(pointer.y).toBeGreaterThan(droppedBox.y);
  expect(pointer.y).toBeLessThan(droppedBox.y + droppedBox.height);

  // Toolbar adds land inside the visible canvas, above the bottom panel, never on another node.
  for (let count = 1; count <= 3; count++) {
    await page.getByRole("button", { name: "Add agent", exact: true }).click();
    await expect(page.locator(".react-flow__node-agent")).toHaveCount(count);
  }
  // And Enter on a palette entry adds one in view too.
  await palette(page).locator('[data-palette-entry="model"]').focus();
  await page.keyboard.press("Enter");
  await expect(page.locator(".react-flow__node-model")).toHaveCount(1);

  const canvas = await box(page.locator(".react-flow"));
  const bottomPanel = await box(page.getByRole("region", { name: "Problems" }));
  const added = [
    ...(await page.locator(".react-flow__node-agent").all()),
    page.locator(".react-flow__node-model"),
  ];
  const boxes = await Promise.all(added.map(box));
  for (const nodeBox of boxes) {
    expect(nodeBox.x).toBeGreaterThanOrEqual(canvas.x);
    expect(nodeBox.y).toBeGreaterThanOrEqual(canvas.y);
    expect(nodeBox.x + nodeBox.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    expect(nodeBox.y + nodeBox.height).toBeLessThanOrEqual(Math.min(canvas.y + canvas.height, bottomPanel.y));
  }
  for (const [index, first] of boxes.entries()) {
    for (const second of boxes.slice(index + 1)) {
      const overlap =
        first.x < second.x + second.width &&
        second.x < first.x + first.width &&
        first.y < second.y + second.height &&
        second.y < first.y + first.height;
      expect(overlap).toBe(false);
    }
  }

  // Select the three agents and align them left from the canvas menu: one undo step.
  const agents = page.locator(".react-flow__node-agent");
  const xs = async () => (await Promise.all((await agents.all()).map(box))).map((agentBox) => agentBox.x);
  const before = await xs();
  expect(new Set(before.map(Math.round)).size).toBeGreaterThan(1);
  await agents.nth(0).click();
  await agents.nth(1).click({ modifiers: ["Shift"] });
  await agents.nth(2).click({ modifiers: ["Shift"] });
  await expect(page.locator(".react-flow__node.selected")).toHaveCount(3);
  await agents.nth(2).click({ button: "right" });
  const menu = page.getByRole("menu", { name: "Canvas actions" });
  await expect(menu.getByRole("menuitem", { name: /Distribute vertically/ })).toBeVisible();
  await menu.getByRole("menuitem", { name: /Align left/ }).click();
  await expect.poll(async () => new Set((await xs()).map((x) => Math.round(x))).size).toBe(1);
  await page.keyboard.press("Control+z");
  await expect.poll(xs).toEqual(before);

  // With one node selected there is nothing to align: the menu leaves the commands out.
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  await agents.nth(0).click();
  await expect(page.locator(".react-flow__node.selected")).toHaveCount(1);
  await agents.nth(0).click({ button: "right" });
  await expect(menu.getByRole("menuitem", { name: /Copy/ })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: /Align left/ })).toHaveCount(0);
  await page.keyboard.press("Escape");
});

test("studio with the palette at 1280, 1440 and 1920 wide; the palette collapses and passes axe", async ({
  page,
}) => {
  // Three window sizes, three screenshots and two axe runs: slow on a busy 2-core machine.
  test.setTimeout(90_000);
  await openEmptyStudio(page);
  await page.getByRole("button", { name: "Templates" }).click();
  await page
    .getByRole("menu", { name: "Templates" })
    .getByRole("menuitem", { name: /chat assistant/i })
    .click();
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  // At 1280 the palette is a rail at first; the canvas keeps its room.
  const rail = await box(palette(page));
  expect(rail.width).toBeLessThan(60);
  await page.screenshot({ path: `${ARTIFACTS}/studio-palette-rail-1280.png` });

  await atEachWidth(page, async (width) => {
    const expand = palette(page).getByRole("button", { name: "Expand the node palette" });
    if (await expand.isVisible()) await expand.click();
    await expect(palette(page).getByRole("searchbox")).toBeVisible();
    // The canvas keeps at least half the window.
    const canvas = await box(page.locator(".react-flow"));
    expect(canvas.width).toBeGreaterThanOrEqual(width / 2 - 1);
    // Nothing in the palette is cut: every entry is inside it, across and down.
    const paletteBox = await box(palette(page));
    for (const entry of await entries(page).all()) {
      const entryBox = await box(entry);
      expect(entryBox.x + entryBox.width).toBeLessThanOrEqual(paletteBox.x + paletteBox.width);
      expect(entryBox.y + entryBox.height).toBeLessThanOrEqual(paletteBox.y + paletteBox.height);
    }
    await page.screenshot({ path: `${ARTIFACTS}/studio-palette-${width}.png` });
  });
  const axe = await new AxeBuilder({ page }).include('[aria-label="Node palette"]').analyze();
  expect(axe.violations).toEqual([]);

  // Collapsing is remembered across reloads.
  await palette(page).getByRole("button", { name: "Collapse the node palette" }).click();
  await expect(palette(page).getByRole("searchbox")).toHaveCount(0);
  await page.reload();
  await expect(palette(page).getByRole("button", { name: "Expand the node palette" })).toBeVisible();
});
