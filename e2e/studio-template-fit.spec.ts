// A template applied from the Templates menu is shown whole: at 1280×800, 1440×900 and 1920×1080
// every card (its handles included) and every edge is inside the canvas pane — not under the
// inspector, the zoom controls or the minimap — at a legible zoom, and stays so when the playground
// opens (the layout packs for the narrower pane too, and a fitted canvas is fitted again). A draft
// restored after a reload is framed like an opened canvas. No edge passes behind a card. After a run
// of each template in the playground, at every width with the playground open and closed, no run
// badge covers an edge label, another badge or a card.
import { expect, type Page, test } from "@playwright/test";
import { FIT_VIEW_MIN_ZOOM } from "../lib/graph/card-geometry";
import { canvasSettled, edgesOutsidePane, graphOffCentre } from "../test/support/e2e-canvas";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";
test.setTimeout(120_000);

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];
const TEMPLATES = [
  { id: "asset", label: /Orchestrator \+ asset subagent/, agents: 2 },
  { id: "named-workers", label: /Team lead \+ named workers/, agents: 3 },
];

async function openEmptyStudio(page: Page, label: string): Promise<void> {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  await page.goto(`/projects/${id}/studio`);
  await expect(page.getByRole("button", { name: "Templates" })).toBeVisible();
}

async function applyTemplate(page: Page, label: RegExp, agents: number) {
  await page.getByRole("button", { name: "Templates" }).click();
  await page.getByRole("menu", { name: "Templates" }).getByRole("menuitem", { name: label }).click();
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(agents, { timeout: 30_000 });
}

/** Every card (with its handles) that is not wholly in the pane, or lies under an overlay. */
async function cardsOutOfView(page: Page) {
  return page.evaluate(() => {
    type Box = { left: number; top: number; right: number; bottom: number };
    const box = (element: Element): Box => {
      const { left, top, right, bottom } = element.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
    const paneElement = document.querySelector(".react-flow__pane");
    if (!viewport || !paneElement) throw new Error("no canvas");
    const pane = box(paneElement);
    const overlays = [".react-flow__controls", ".react-flow__minimap"].flatMap((selector) => {
      const element = document.querySelector(selector);
      return element ? [{ selector, ...box(element) }] : [];
    });
    const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
    const problems: string[] = [];
    for (const node of viewport.querySelectorAll<HTMLElement>(".react-flow__node")) {
      const parts = [node, ...node.querySelectorAll(".react-flow__handle")].map(box);
      const card = {
        left: Math.min(...parts.map((part) => part.left)),
        top: Math.min(...parts.map((part) => part.top)),
        right: Math.max(...parts.map((part) => part.right)),
        bottom: Math.max(...parts.map((part) => part.bottom)),
      };
      const name = node.dataset.id ?? "?";
      if (
        card.left < pane.left - 0.5 ||
        card.top < pane.top - 0.5 ||
        card.right > pane.right + 0.5 ||
        card.bottom > pane.bottom + 0.5
      ) {
        problems.push(`${name} outside the pane`);
      }
      for (const overlay of overlays) {
        if (
          card.left < overlay.right &&
          overlay.left < card.right &&
          card.top < overlay.bottom &&
          overlay.top < card.bottom
        ) {
          problems.push(`${name} under ${overlay.selector}`);
        }
      }
    }
    return { zoom, problems, cards: viewport.querySelectorAll(".react-flow__node").length };
  });
}

/**
 * Edges that pass behind a card other than their own two: each edge's line is walked in 4 px steps
 * (SVG getPointAtLength) and every point is tested against the other cards' boxes, shrunk by 2 px.
 */
async function edgesBehindCards(page: Page) {
  return page.evaluate(() => {
    const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
    if (!viewport) throw new Error("no canvas");
    const cards = [...viewport.querySelectorAll<HTMLElement>(".react-flow__node")].map((node) => ({
      id: node.dataset.id ?? "?",
      box: node.getBoundingClientRect(),
    }));
    const behind: string[] = [];
    for (const edge of document.querySelectorAll<SVGGElement>(".react-flow__edge")) {
      const path = edge.querySelector<SVGPathElement>("path.react-flow__edge-path");
      const id = edge.dataset.id ?? edge.getAttribute("aria-label") ?? "?";
      if (!path) continue;
      const [source, target] = [edge.dataset.source, edge.dataset.target];
      const matrix = path.getScreenCTM();
      if (!matrix) continue;
      const length = path.getTotalLength();
      const crossed = new Set<string>();
      for (let along = 0; along <= length; along += 4) {
        const point = new DOMPoint(
          path.getPointAtLength(along).x,
          path.getPointAtLength(along).y,
        ).matrixTransform(matrix);
        for (const card of cards) {
          if (card.id === source || card.id === target) continue;
          const { left, top, right, bottom } = card.box;
          if (point.x > left + 2 && point.x < right - 2 && point.y > top + 2 && point.y < bottom - 2)
            crossed.add(card.id);
        }
      }
      for (const card of crossed) behind.push(`${id} behind ${card}`);
    }
    return behind;
  });
}

for (const size of VIEWPORTS) {
  test(`templates applied at ${size.width}×${size.height} are shown whole, also with the playground open`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    for (const template of TEMPLATES) {
      await openEmptyStudio(page, `Template fit ${template.id} ${size.width}`);
      await applyTemplate(page, template.label, template.agents);
      await canvasSettled(page);
      const where = `${template.id} at ${size.width}×${size.height}`;
      const shown = await cardsOutOfView(page);
      expect(shown.cards, where).toBeGreaterThan(10);
      expect(shown.problems, where).toEqual([]);
      expect(await edgesOutsidePane(page), where).toEqual([]);
      expect(shown.zoom, where).toBeGreaterThanOrEqual(FIT_VIEW_MIN_ZOOM - 1e-6);
      // No edge passes behind a card (a split column's edges are routed through its gaps).
      expect(await edgesBehindCards(page), where).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/template-fit-${template.id}-${size.width}.png` });

      // The playground takes the inspector's place: the canvas is fitted again, still whole.
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await expect(page.getByRole("complementary", { name: "Playground" })).toBeVisible();
      await canvasSettled(page);
      const running = await cardsOutOfView(page);
      expect(running.problems, `${where}, playground open`).toEqual([]);
      expect(await edgesOutsidePane(page), `${where}, playground open`).toEqual([]);
      expect(running.zoom, `${where}, playground open`).toBeGreaterThanOrEqual(FIT_VIEW_MIN_ZOOM - 1e-6);
      expect(await edgesBehindCards(page), `${where}, playground open`).toEqual([]);
      await page.screenshot({
        path: `${ARTIFACTS}/template-fit-${template.id}-${size.width}-playground.png`,
      });
    }
  });
}

test("a draft restored after a reload is fitted like an opened canvas", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openEmptyStudio(page, "Draft fit");
  await applyTemplate(page, /Chat assistant/, 1);
  await expect(page.getByTestId("unsaved-changes")).toHaveAttribute("data-draft", "kept");
  await page.reload();
  await expect(page.getByRole("region", { name: "Restored draft" })).toBeVisible();
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(1);
  await canvasSettled(page);
  const shown = await cardsOutOfView(page);
  expect(shown.problems).toEqual([]);
  // Framed (centred across the pane), not left at React Flow's initial viewport at the pane's edge.
  const offCentre = await graphOffCentre(page);
  expect(offCentre).toBeLessThan(30);
  await page.screenshot({ path: `${ARTIFACTS}/draft-restored-fit-1280.png` });
});

/** Every run badge that covers a shown edge label, another badge or a card (screen boxes). */
async function badgeOverlaps(page: Page) {
  return page.evaluate(() => {
    const meet = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const badges = [...document.querySelectorAll<HTMLElement>('[data-testid="run-overlay"]')].map(
      (badge) => ({
        name: `badge ${badge.dataset.agent} "${badge.textContent}"`,
        box: badge.getBoundingClientRect(),
      }),
    );
    const labels = [...document.querySelectorAll<HTMLElement>('[data-testid="edge-label"]')].map((label) => ({
      name: `label "${label.dataset.label}"`,
      box: label.getBoundingClientRect(),
    }));
    const cards = [...document.querySelectorAll<HTMLElement>(".react-flow__node")].map((node) => ({
      name: `card ${node.dataset.id}`,
      box: node.getBoundingClientRect(),
    }));
    const overlaps: string[] = [];
    badges.forEach((badge, index) => {
      for (const other of [...badges.slice(index + 1), ...labels, ...cards])
        if (meet(badge.box, other.box)) overlaps.push(`${badge.name} covers ${other.name}`);
    });
    return { badges: badges.length, labels: labels.length, overlaps };
  });
}

const RUN_TEMPLATES = [
  { id: "chat", label: /Chat assistant/, agents: 1, ended: [] as string[] },
  { id: "asset", label: /Orchestrator \+ asset subagent/, agents: 2, ended: ["asset_subagent"] },
  { id: "named-workers", label: /Team lead \+ named workers/, agents: 3, ended: ["writer", "critic"] },
];

for (const template of RUN_TEMPLATES) {
  test(`after a run of the ${template.id} template no run badge covers an edge label, a badge or a card`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    // Applied and run at each width (as a user there would): the layout packs for that pane.
    await atEachWidth(page, async (width) => {
      await openEmptyStudio(page, `Badge room ${template.id} ${width}`);
      await applyTemplate(page, template.label, template.agents);
      await page.getByRole("button", { name: "Run", exact: true }).click();
      const playground = page.getByRole("complementary", { name: "Playground" });
      await playground.getByLabel("First message").fill("a short poem about rain");
      await playground.getByRole("button", { name: "Save and start run" }).click();
      // The run settles: the entry agent waits for the user, every child has ended.
      const badge = (agent: string) => page.locator(`[data-testid="run-overlay"][data-agent="${agent}"]`);
      await expect(page.getByTestId("run-overlay")).toHaveCount(template.agents, { timeout: 60_000 });
      for (const child of template.ended) {
        await expect(badge(child)).toHaveAttribute("data-live", "0", { timeout: 60_000 });
        // The same word as the run's tree.
        await expect(badge(child)).toContainText("completed");
      }
      await expect(page.locator('[data-testid="run-overlay"][data-running="0"]')).toHaveCount(
        template.agents,
        { timeout: 60_000 },
      );
      // With the node palette as it opens, then collapsed (a wider pane, a larger zoom: full-text
      // labels, as in the new-user pass), then with the playground closed.
      const collapse = page.getByRole("button", { name: "Collapse the node palette" });
      for (const state of ["playground", "collapsed", "closed"] as const) {
        if (state === "collapsed" && (await collapse.count()) > 0) await collapse.click();
        if (state === "closed")
          await playground.getByRole("button", { name: "Close the playground" }).click();
        await canvasSettled(page);
        const where = `${template.id} at ${width}, ${state}`;
        const found = await badgeOverlaps(page);
        if (state !== "closed") expect(found.badges, where).toBe(template.agents);
        expect(found.overlaps, where).toEqual([]);
        await page.screenshot({ path: `${ARTIFACTS}/run-badges-${template.id}-${width}-${state}.png` });
      }
    });
  });
}
