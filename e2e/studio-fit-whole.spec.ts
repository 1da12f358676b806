// Issue 41: Fit View shows every card. Each template, laid out in the widest window (1920×1080), is
// fitted at 1280×800, 1440×900 and 1920×1080 with the playground closed and open: no card may lie
// outside the canvas pane or under the zoom controls or the minimap. Screenshots go to e2e-artifacts.
import { expect, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

async function replaceWithTemplate(page: Page, label: RegExp) {
  await page.getByRole("button", { name: "Templates" }).click();
  await page.getByRole("menu", { name: "Templates" }).getByRole("menuitem", { name: label }).click();
}

/** Cards (by title) outside the canvas pane or under its zoom controls or minimap, after a fit. */
async function cardsHidden(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const box = (selector: string) => document.querySelector(selector)?.getBoundingClientRect() ?? null;
    const pane = box(".react-flow__pane");
    if (!pane) throw new Error("no canvas");
    const overlays = [box(".react-flow__controls"), box(".react-flow__minimap")].filter(
      (overlay): overlay is DOMRect => overlay !== null,
    );
    const overlaps = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return [...document.querySelectorAll<HTMLElement>(".react-flow__node")].flatMap((node) => {
      const card = node.getBoundingClientRect();
      const outside =
        card.left < pane.left - 0.5 ||
        card.right > pane.right + 0.5 ||
        card.top < pane.top - 0.5 ||
        card.bottom > pane.bottom + 0.5;
      return outside || overlays.some((overlay) => overlaps(card, overlay))
        ? [node.getAttribute("data-id") ?? "?"]
        : [];
    });
  });
}

for (const template of [/Chat assistant/, /Orchestrator \+ asset subagent/, /Team lead \+ named workers/]) {
  test(`Fit View shows every card of ${template.source.replaceAll("\\", "")} at every width, playground open or closed`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1920, height: 1080 });
    const created = await page.request.post("/api/projects", { data: { name: `Fit ${Date.now()}` } });
    const id = ((await created.json()) as { id: string }).id;
    await page.goto(`/projects/${id}/studio`);
    await expect(page.getByTestId("empty-canvas-hint")).toBeVisible({ timeout: 15_000 });
    // Laid out for the widest window, then looked at in the narrower ones too.
    await replaceWithTemplate(page, template);
    await expect(page.locator(".react-flow__node-agent").first()).toBeVisible();
    const fit = page.getByRole("button", { name: "Fit View" });
    await atEachWidth(page, async (width) => {
      for (const open of [false, true]) {
        if (open) await page.getByRole("button", { name: "Run", exact: true }).click();
        await fit.click();
        await page.waitForTimeout(400);
        expect(await cardsHidden(page), `at ${width}, playground ${open ? "open" : "closed"}`).toEqual([]);
        if (open) {
          await page.screenshot({
            path: `${ARTIFACTS}/studio-run-fit-${template.source.slice(0, 5)}-${width}.png`,
          });
          await page
            .getByRole("complementary", { name: "Playground" })
            .getByRole("button", { name: "Close the playground" })
            .click();
        }
      }
    });
  });
}
