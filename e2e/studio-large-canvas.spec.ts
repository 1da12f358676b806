// A large studio canvas (301 nodes, 480 edges) keeps only what is near the view in the DOM, so
// panning and dragging stay cheap (benchmark 11 measures them); panning brings the rest in, the
// minimap still shows every node, and a dragged card is saved where it was dropped. A small canvas
// keeps every card in the DOM (other specs count them), so the keyboard reaches each one.
import { expect, type Page, test } from "@playwright/test";
import { decompileBundle, sideRowCentre } from "../lib/graph";
import { studioBundle } from "../test/support/bench-bundles";

test.use({ viewport: { width: 1440, height: 900 } });
// About 20 s on an idle machine; the margin is for a loaded shared CI runner.
test.describe.configure({ timeout: 120_000 });

const TEAMS = 60;

async function openLargeCanvas(page: Page): Promise<{ id: string; nodes: number }> {
  const created = await page.request.post("/api/projects", { data: { name: `large ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const graph = decompileBundle(studioBundle(TEAMS));
  const saved = await page.request.put(`/api/projects/${id}/graph`, { data: { graph } });
  expect(saved.status()).toBe(200);
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node").first()).toBeVisible({ timeout: 60_000 });
  return { id, nodes: graph.nodes.length };
}

const renderedNodeIds = (page: Page) =>
  page.locator(".react-flow__node").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-id")));

/** A point on empty canvas (the pane itself is under it), searched from the middle outwards. */
async function emptySpot(page: Page): Promise<{ x: number; y: number }> {
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (!pane) throw new Error("no canvas pane");
  const spot = await page.evaluate(({ x, y, width, height }) => {
    for (let radius = 0; radius < Math.min(width, height) / 2; radius += 12) {
      for (let angle = 0; angle < 360; angle += 30) {
        const px = x + width / 2 + radius * Math.cos((angle * Math.PI) / 180);
        const py = y + height / 2 + radius * Math.sin((angle * Math.PI) / 180);
        if (document.elementFromPoint(px, py)?.classList.contains("react-flow__pane"))
          return { x: px, y: py };
      }
    }
    return null;
  }, pane);
  if (!spot) throw new Error("no empty spot on the canvas");
  return spot;
}

test("a 300-node canvas renders the cards near the view, and panning brings the others in", async ({
  page,
}) => {
  const { nodes } = await openLargeCanvas(page);
  expect(nodes).toBe(TEAMS * 5 + 1);

  // The cards are measured once (all rendered), then only those near the view stay.
  await expect
    .poll(async () => (await renderedNodeIds(page)).length, { timeout: 15_000 })
    .toBeLessThan(nodes / 2);
  const before = new Set(await renderedNodeIds(page));
  expect(before.size).toBeGreaterThan(0);
  // Edge labels: a bound only (crowded labels hide anyway; labelDrawArea is unit tested), and, zoomed
  // in with room for them, some labels near the view, so the culling does not drop those.
  expect(await page.getByTestId("edge-label").count()).toBeLessThan(240);
  await page.getByRole("button", { name: "Zoom In" }).click();
  await page.getByRole("button", { name: "Zoom In" }).click();
  await expect.poll(() => page.getByTestId("edge-label").count()).toBeGreaterThan(0);
  expect(await page.getByTestId("edge-label").count()).toBeLessThan(240);
  // The minimap still shows the whole canvas.
  await expect(page.locator(".react-flow__minimap-node")).toHaveCount(nodes);

  // Pan: drag the empty canvas up and to the left, several times.
  for (let sweep = 0; sweep < 3; sweep += 1) {
    const start = await emptySpot(page);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x - 300, start.y - 400, { steps: 12 });
    await page.mouse.up();
  }
  const after = await renderedNodeIds(page);
  const revealed = after.filter((id) => !before.has(id));
  expect(revealed.length).toBeGreaterThan(0);
  // A revealed card is a whole card, with its text and handles.
  const card = page.locator(`.react-flow__node[data-id="${revealed[0]}"]`);
  await expect(card.getByTestId("studio-node")).toBeVisible();
  await expect(card.locator(".react-flow__handle").first()).toBeAttached();
});

test("a card dragged on a large canvas is saved where it was dropped", async ({ page }) => {
  const { id } = await openLargeCanvas(page);
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (!pane) throw new Error("no canvas pane");
  // The card nearest the middle of the view.
  const nearest = await page.locator(".react-flow__node").evaluateAll(
    (elements, centre) => {
      let best: { id: string; x: number; y: number } | null = null;
      let bestDistance = Number.POSITIVE_INFINITY;
      for (const element of elements) {
        const box = element.getBoundingClientRect();
        const distance = Math.hypot(box.x + box.width / 2 - centre.x, box.y + box.height / 2 - centre.y);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = { id: element.getAttribute("data-id") ?? "", x: box.x + 24, y: box.y + 10 };
        }
      }
      return best;
    },
    { x: pane.x + pane.width / 2, y: pane.y + pane.height / 2 },
  );
  if (!nearest) throw new Error("no card in view");
  const card = page.locator(`.react-flow__node[data-id="${nearest.id}"]`);
  const start = await card.boundingBox();
  await page.mouse.move(nearest.x, nearest.y);
  await page.mouse.down();
  await page.mouse.move(nearest.x + 120, nearest.y + 60, { steps: 10 });
  await page.mouse.up();
  const end = await card.boundingBox();
  expect(end && start ? Math.round(end.x - start.x) : 0).toBeGreaterThan(80);

  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("unsaved-changes")).toHaveCount(0, { timeout: 15_000 });
  const stored = (await (await page.request.get(`/api/projects/${id}`)).json()) as {
    graph: { nodes: { id: string; position: { x: number; y: number } }[] };
  };
  const original = decompileBundle(studioBundle(TEAMS)).nodes.find((node) => node.id === nearest.id);
  const moved = stored.graph.nodes.find((node) => node.id === nearest.id);
  expect(original && moved).toBeTruthy();
  expect((moved?.position.x ?? 0) - (original?.position.x ?? 0)).toBeGreaterThan(80);
});

test("zoomed far out, cards that come into view skip their text but keep their ports, and get the text back zoomed in", async ({
  page,
}) => {
  const { nodes } = await openLargeCanvas(page);
  await expect
    .poll(async () => (await renderedNodeIds(page)).length, { timeout: 15_000 })
    .toBeLessThan(nodes / 2);
  const zoomOut = page.getByRole("button", { name: "Zoom Out" });
  for (let click = 0; click < 12 && (await zoomOut.isEnabled()); click += 1) await zoomOut.click();
  await expect(page.locator(".react-flow.studio-canvas-far")).toHaveCount(1);
  const pan = async (dx: number, dy: number) => {
    const start = await emptySpot(page);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + dx, start.y + dy, { steps: 12 });
    await page.mouse.up();
  };
  // Pan away (cards leave the view and the DOM), then back: the cards that come into view again
  // mount without their text.
  await pan(600, 350);
  await pan(600, 350);
  const before = new Set(await renderedNodeIds(page));
  await pan(-600, -350);
  await pan(-600, -350);
  const revealed = (await renderedNodeIds(page)).filter((id) => id && !before.has(id)) as string[];
  expect(revealed.length).toBeGreaterThan(3);
  const cards = await page.evaluate((ids) => {
    const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
    if (!viewport) throw new Error("no viewport");
    const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
    return ids.flatMap((id) => {
      const node = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${id}"]`);
      if (!node || node.classList.contains("react-flow__node-note")) return [];
      const card = node.getBoundingClientRect();
      return [
        {
          id,
          names: node.querySelectorAll("[data-testid=node-name]").length,
          width: card.width / zoom,
          height: card.height / zoom,
          ports: [...node.querySelectorAll<HTMLElement>(".react-flow__handle")].map((handle) => {
            const box = handle.getBoundingClientRect();
            return {
              side: handle.dataset.handlepos ?? "",
              handle: handle.dataset.handleid ?? "",
              x: (box.x + box.width / 2 - card.x) / zoom,
              y: (box.y + box.height / 2 - card.y) / zoom,
            };
          }),
        },
      ];
    });
  }, revealed);
  expect(cards.length).toBeGreaterThan(3);
  for (const card of cards) {
    expect(card.names, card.id).toBe(0);
    expect(card.ports.length, card.id).toBeGreaterThan(0);
    // Where the card geometry puts them (lib/graph/card-geometry.ts): in on the left edge's middle,
    // out on the right edge's middle, an agent's sides on the right at their rows' centres.
    for (const port of card.ports) {
      const expected =
        port.side === "left"
          ? { x: 0, y: card.height / 2 }
          : port.handle === "sideA"
            ? { x: card.width, y: sideRowCentre(0) }
            : port.handle === "sideB"
              ? { x: card.width, y: sideRowCentre(1) }
              : { x: card.width, y: card.height / 2 };
      expect(Math.abs(port.x - expected.x), `${card.id} ${port.handle || port.side} x`).toBeLessThan(1.5);
      expect(Math.abs(port.y - expected.y), `${card.id} ${port.handle || port.side} y`).toBeLessThan(1.5);
    }
  }

  // Zoomed back in around the middle, every card in the DOM renders its name again.
  const zoomIn = page.getByRole("button", { name: "Zoom In" });
  for (let click = 0; click < 5; click += 1) await zoomIn.click();
  await expect(page.locator(".react-flow.studio-canvas-far")).toHaveCount(0);
  const definitionCards = page.locator(".react-flow__node:not(.react-flow__node-note)");
  await expect
    .poll(async () => {
      const total = await definitionCards.count();
      const named = await definitionCards.locator("[data-testid=node-name]").count();
      return total > 0 && named === total;
    })
    .toBe(true);
});
