// The canvas reads like a product at every size: for every template at 1280×800, 1440×900 and
// 1920×1080, after fit view no canvas text is under 11 px on screen, no edge label covers a node or
// another label, and every handle takes the pointer over at least 16×16 px. Screenshots at 1440×900.
import { expect, type Page, test } from "@playwright/test";
import { CANVAS_FAR_ZOOM, FIT_VIEW_MIN_ZOOM, MIN_TEXT_PX } from "../lib/graph/card-geometry";
import { STUDIO_TEMPLATES } from "../lib/studio/templates";
import { canvasSettled } from "../test/support/e2e-canvas";

const ARTIFACTS = "e2e-artifacts";
// Three templates per test; a few seconds each on a quiet machine, more on a shared CI runner.
test.setTimeout(120_000);
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

type Rect = { x: number; y: number; width: number; height: number };

async function openTemplate(page: Page, template: (typeof STUDIO_TEMPLATES)[number]) {
  const created = await page.request.post("/api/projects", {
    data: { name: `Legible ${template.id} ${Date.now()}`, definitions: template.build() },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node")).not.toHaveCount(0, { timeout: 30_000 });
  await page.getByRole("button", { name: "Fit View" }).click();
  await canvasSettled(page);
}

/** The canvas as measured in the page: zoom, text sizes on screen, label/node/handle boxes. */
/** Each port's centre relative to its card's top-left corner, in flow units (screen px / zoom). */
async function portOffsets(page: Page) {
  return page.evaluate(() => {
    const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
    if (!viewport) throw new Error("no viewport");
    const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
    return [...viewport.querySelectorAll<HTMLElement>(".react-flow__node")].flatMap((node) => {
      const card = node.getBoundingClientRect();
      return [...node.querySelectorAll<HTMLElement>(".react-flow__handle")].map((handle) => {
        const box = handle.getBoundingClientRect();
        return {
          key: `${node.dataset.id}:${handle.dataset.handleid ?? handle.dataset.handlepos}`,
          x: (box.x + box.width / 2 - card.x) / zoom,
          y: (box.y + box.height / 2 - card.y) / zoom,
        };
      });
    });
  });
}

async function measure(page: Page) {
  return page.evaluate(() => {
    const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
    if (!viewport) throw new Error("no viewport");
    const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
    const texts: { text: string; px: number }[] = [];
    for (const element of viewport.querySelectorAll<HTMLElement>("*")) {
      const ownText = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? "")
        .join("")
        .trim();
      if (!ownText || !element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      texts.push({ text: ownText, px: Number.parseFloat(getComputedStyle(element).fontSize) * zoom });
    }
    const rect = (element: Element) => element.getBoundingClientRect().toJSON() as Rect;
    const nodes = [...viewport.querySelectorAll(".react-flow__node")].map(rect);
    const labels = [...viewport.querySelectorAll("[data-testid=edge-label]")].map((element) => ({
      label: element.getAttribute("data-label") ?? "",
      ...rect(element),
    }));
    // Hit-test each handle over a 16×16 square around its centre: every point must reach it.
    const pane = rect(document.querySelector(".react-flow__pane") as Element);
    const covers = [".react-flow__minimap", ".react-flow__controls"].map((selector) => {
      const element = document.querySelector(selector);
      return element ? rect(element) : null;
    });
    const handles: { handle: string; missed: string[] }[] = [];
    for (const handle of viewport.querySelectorAll<HTMLElement>(".react-flow__handle")) {
      const box = rect(handle);
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      const square = { x: cx - 10, y: cy - 10, width: 20, height: 20 };
      const inside =
        square.x >= pane.x &&
        square.y >= pane.y &&
        square.x + square.width <= pane.x + pane.width &&
        square.y + square.height <= pane.y + pane.height &&
        !covers.some(
          (cover) =>
            cover &&
            square.x < cover.x + cover.width &&
            cover.x < square.x + square.width &&
            square.y < cover.y + cover.height &&
            cover.y < square.y + square.height,
        );
      if (!inside) continue;
      const missed: string[] = [];
      for (const dx of [-7.5, 0, 7.5]) {
        for (const dy of [-7.5, 0, 7.5]) {
          const hit = document.elementFromPoint(cx + dx, cy + dy)?.closest(".react-flow__handle");
          if (hit !== handle) missed.push(`${dx},${dy}`);
        }
      }
      const node = handle.closest(".react-flow__node")?.getAttribute("data-id") ?? "?";
      handles.push({ handle: `${node} ${handle.getAttribute("data-handleid") ?? handle.className}`, missed });
    }
    // How much of the canvas fit view left out of view, and whether its left/top edge (where the
    // entry agent sits) is shown.
    const nodeLeft = Math.min(...nodes.map((node) => node.x));
    const nodeTop = Math.min(...nodes.map((node) => node.y));
    const nodeRight = Math.max(...nodes.map((node) => node.x + node.width));
    const nodeBottom = Math.max(...nodes.map((node) => node.y + node.height));
    const fit = {
      startShown: nodeLeft >= pane.x && nodeTop >= pane.y,
      whole:
        nodeLeft >= pane.x &&
        nodeTop >= pane.y &&
        nodeRight <= pane.x + pane.width &&
        nodeBottom <= pane.y + pane.height,
    };
    return { zoom, texts, nodes, labels, handles, fit };
  });
}

function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const size of VIEWPORTS) {
  test(`every template is legible at fit view at ${size.width}×${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    for (const template of STUDIO_TEMPLATES) {
      await openTemplate(page, template);
      const { zoom, texts, nodes, labels, handles, fit } = await measure(page);
      const where = `${template.id} at ${size.width}×${size.height}`;

      expect(zoom, where).toBeGreaterThanOrEqual(FIT_VIEW_MIN_ZOOM - 1e-6);
      // Fit view never reaches the far zoom, where card text is left out (so the sizes above count).
      expect(FIT_VIEW_MIN_ZOOM).toBeGreaterThan(CANVAS_FAR_ZOOM);
      await expect(page.locator(".react-flow.studio-canvas-far")).toHaveCount(0);
      expect(zoom, where).toBeLessThanOrEqual(1);
      expect(texts.length, where).toBeGreaterThan(nodes.length);
      const small = texts.filter((text) => text.px < MIN_TEXT_PX - 0.01);
      expect(small, `${where}: text under ${MIN_TEXT_PX}px`).toEqual([]);

      for (const [index, label] of labels.entries()) {
        for (const node of nodes)
          expect(intersects(label, node), `${where}: "${label.label}" on a node`).toBe(false);
        for (const other of labels.slice(index + 1)) {
          expect(intersects(label, other), `${where}: "${label.label}" on "${other.label}"`).toBe(false);
        }
      }

      // The layout packs for the pane (wrapping rows, splitting tall columns): every template fits
      // whole at 1280, 1440 and 1920 with the palette and inspector open.
      expect(fit.startShown, `${where}: the start of the canvas is in view`).toBe(true);
      expect(fit.whole, `${where}: the whole canvas is in view`).toBe(true);

      expect(handles.length, where).toBeGreaterThan(0);
      for (const handle of handles) expect(handle.missed, `${where}: ${handle.handle}`).toEqual([]);

      await page.screenshot({ path: `${ARTIFACTS}/canvas-${template.id}-${size.width}.png` });
    }
  });
}

test("crowded labels show in full on hover, and a label click selects its edge", async ({ page }) => {
  // Laid out on a wide canvas, the two-worker template keeps its five layers side by side; seen at
  // 1440 the two subagent edges (writer, critic) leave the same prompt close together.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openTemplate(page, STUDIO_TEMPLATES.find((template) => template.id === "named-workers")!);
  await page
    .getByRole("toolbar", { name: "Studio tools" })
    .getByRole("button", { name: "Auto layout" })
    .click();
  await expect(page.getByText("Laid out the whole canvas")).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("button", { name: "Fit View" }).click();
  // At fit view each subagent edge is a badge (resumable, up to 2); its full mode is one hover away.
  await expect(page.locator("[data-testid=edge-label][data-kind=subagent]")).toHaveCount(2);
  const label = page.locator(
    '[data-testid=edge-label][data-kind=subagent][data-edge-id="prompt:lead_chat:tools:0"]',
  );
  await expect(label).toHaveAttribute("data-form", "compact");
  await expect(label).toHaveAttribute("data-label", "subagent · blocking · resumable ×2");
  await label.hover();
  await expect(label).toHaveAttribute("data-form", "full");
  await expect(label).toHaveText("subagent · blocking · resumable ×2");
  await label.click();
  await expect(page.getByRole("complementary", { name: "Inspector" })).toContainText("writer");
  await expect(page.locator(".react-flow__edge.selected.studio-edge-subagent")).toHaveCount(1);
});

test("zoomed far out, cards are coloured blocks without their unreadable text, and zooming in brings it back", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTemplate(page, STUDIO_TEMPLATES.find((template) => template.id === "asset")!);
  const names = page.getByTestId("node-name");
  await expect(names.first()).toBeVisible();
  // A note too: its text is the card's own, not in a child element.
  await page.getByRole("button", { name: "Add note" }).click();
  const noteText = "Review the asset flow.";
  await page.getByRole("complementary", { name: "Inspector" }).getByLabel("Note text").fill(noteText);
  const note = page.locator(".studio-note");
  await expect(note).toHaveText(noteText);
  const noteColour = () => note.evaluate((element) => getComputedStyle(element).color);
  expect(await noteColour()).not.toBe("rgba(0, 0, 0, 0)");
  // A selected edge shows its label in full at any readable zoom: select a straight one (its middle is
  // on the line). Measured and clicked again until it is selected: on a loaded machine the canvas may
  // still be settling after the note was added, and a click where the edge was misses it.
  await expect(async () => {
    const straight = await page.locator(".react-flow__edge").evaluateAll((edges) =>
      edges
        .map((edge) => edge.getBoundingClientRect())
        .filter((box) => box.height < 6 && box.width > 30)
        .map((box) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 })),
    );
    expect(straight.length).toBeGreaterThan(0);
    await page.mouse.click(straight[0]!.x, straight[0]!.y);
    await expect(page.locator(".react-flow__edge.selected")).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  // The selected edge's label shows (the template's wrapped rows leave room for other labels too).
  await expect(page.locator("[data-testid=edge-label].studio-edge-label-selected")).toHaveCount(1);
  const portsBefore = await portOffsets(page);
  expect(portsBefore.length).toBeGreaterThan(10);
  const zoomOut = page.getByRole("button", { name: "Zoom Out" });
  // Each click zooms out by 1.2; stop at the canvas's minimum (the button is disabled there).
  for (let click = 0; click < 12 && (await zoomOut.isEnabled()); click += 1) await zoomOut.click();
  await expect.poll(() => measure(page).then((measured) => measured.zoom)).toBeLessThan(CANVAS_FAR_ZOOM);
  // Every port is where it was on its card (in flow units), so the edges stay attached although the
  // cards' text is no longer rendered.
  const portsFar = await portOffsets(page);
  expect(portsFar.map((port) => port.key)).toEqual(portsBefore.map((port) => port.key));
  for (const [index, port] of portsFar.entries()) {
    expect(Math.abs(port.x - portsBefore[index]!.x), port.key).toBeLessThan(1.5);
    expect(Math.abs(port.y - portsBefore[index]!.y), port.key).toBeLessThan(1.5);
  }
  await expect(page.locator(".react-flow.studio-canvas-far")).toHaveCount(1);
  // Every card is still there, at its size, with its ports; its text is not drawn.
  const cards = page.getByTestId("studio-node");
  expect(await cards.count()).toBeGreaterThan(5);
  await expect(cards.first()).toBeVisible();
  for (const name of await names.all()) await expect(name).toBeHidden();
  // The note's text is its own element's, so it is drawn transparent (checked below) rather than hidden.
  const visibleText = await measure(page).then((measured) => measured.texts);
  expect(visibleText.filter((text) => text.text !== noteText)).toEqual([]);
  // The ports keep their place (edges stay attached) without being painted.
  await expect(page.locator(".react-flow__handle").first()).toBeAttached();
  await expect(page.locator(".react-flow__handle").first()).toBeHidden();
  expect(await noteColour()).toBe("rgba(0, 0, 0, 0)");
  // No edge label either (their text would be under 5 px); they come back with the text below.
  await expect(page.getByTestId("edge-label")).toHaveCount(0);
  // The card's colour is its kind's, not the surface's.
  const fill = await cards.first().evaluate((card) => getComputedStyle(card).backgroundColor);
  const surface = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(fill).not.toBe(surface);
  await page.screenshot({ path: `${ARTIFACTS}/canvas-far-zoom.png` });

  await page.getByRole("button", { name: "Fit View" }).click();
  await expect(page.locator(".react-flow.studio-canvas-far")).toHaveCount(0);
  await expect(names.first()).toBeVisible();
  await expect(page.locator(".react-flow__handle").first()).toBeVisible();
  await expect(page.getByTestId("edge-label").first()).toBeVisible();
});
