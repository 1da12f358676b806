// Canvas helpers for Playwright specs of the studio: when a fit has landed, and where the cards sit.
import { expect, type Page } from "@playwright/test";

/** Waits until the canvas transform stops changing (a fit or a refit has landed). */
export async function canvasSettled(page: Page): Promise<void> {
  let last = "";
  await expect
    .poll(async () => {
      await page.waitForTimeout(150);
      const now = await page
        .locator(".react-flow__viewport")
        .evaluate((element) => getComputedStyle(element).transform);
      const same = now === last;
      last = now;
      return same;
    })
    .toBe(true);
}

/** How far (px, across) the cards' middle is from the canvas pane's middle. */
export async function graphOffCentre(page: Page): Promise<number> {
  return page.evaluate(() => {
    const pane = document.querySelector(".react-flow__pane")?.getBoundingClientRect();
    const cards = [...document.querySelectorAll(".react-flow__node")].map((node) =>
      node.getBoundingClientRect(),
    );
    if (!pane || cards.length === 0) return Number.POSITIVE_INFINITY;
    const left = Math.min(...cards.map((card) => card.left));
    const right = Math.max(...cards.map((card) => card.right));
    return Math.abs((left + right) / 2 - (pane.left + pane.right) / 2);
  });
}

/** The canvas edges whose line leaves the canvas pane (a routed edge's stub cut at its edge). */
export async function edgesOutsidePane(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pane = document.querySelector(".react-flow__pane")?.getBoundingClientRect();
    if (!pane) throw new Error("no canvas");
    const outside: string[] = [];
    for (const path of document.querySelectorAll(".react-flow__edge path.react-flow__edge-path")) {
      const line = path.getBoundingClientRect();
      if (
        line.left < pane.left - 1 ||
        line.right > pane.right + 1 ||
        line.top < pane.top - 1 ||
        line.bottom > pane.bottom + 1
      )
        outside.push(path.closest(".react-flow__edge")?.getAttribute("data-id") ?? "?");
    }
    return outside;
  });
}
