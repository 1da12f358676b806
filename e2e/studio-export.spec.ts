// The studio's Export menu exports the canvas as it is: with an unsaved edit it says so and offers to
// save first, the JSON item downloads the current document (not the saved one), and the menu closes
// after a choice, on Escape and on a click outside; its items move with the arrow keys.
import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1280, height: 800 } });

const status = (page: Page) => page.getByRole("status", { name: "Studio status" });
const exportButton = (page: Page) => page.getByRole("button", { name: "Export", exact: true });
const exportMenu = (page: Page) => page.getByRole("menu", { name: "Export" });

async function downloadJson(page: Page): Promise<{ name: string; body: Record<string, unknown> }> {
  await exportButton(page).click();
  const downloading = page.waitForEvent("download");
  await exportMenu(page).getByRole("menuitem", { name: "JSON bundle (.json)" }).click();
  const download = await downloading;
  const target = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(target);
  return { name: download.suggestedFilename(), body: JSON.parse(fs.readFileSync(target, "utf8")) };
}

test("exports the canvas as it is, warns about unsaved changes and closes after use", async ({ page }) => {
  // About 20 s on a quiet machine; room for a busy CI runner (axe alone can take a while there).
  test.setTimeout(120_000);
  const name = `Export ${Date.now()}`;
  const created = await page.request.post("/api/projects", { data: { name } });
  const id = ((await created.json()) as { id: string }).id;
  await page.goto(`/projects/${id}/studio`);

  await page.getByRole("button", { name: "Templates" }).click();
  await page
    .getByRole("menu", { name: "Templates" })
    .getByRole("menuitem", { name: /Chat assistant/ })
    .click();
  // The template lands once it is laid out (ELK loads on demand).
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(status(page)).toHaveText("Saved v2");

  // Saved: no notice; Escape closes the menu and gives focus back to its button.
  await exportButton(page).click();
  await expect(exportMenu(page)).toBeVisible();
  await expect(exportMenu(page)).toHaveAccessibleDescription("");
  // A menu: the first item has the focus, the arrow keys move between the items.
  await expect(exportMenu(page).getByRole("menuitem", { name: "JSON bundle (.json)" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(exportMenu(page).getByRole("menuitem", { name: "TypeScript module (.ts)" })).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(exportMenu(page).getByRole("menuitem", { name: /Standard Agents project/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(exportMenu(page)).toBeHidden();
  await expect(exportButton(page)).toBeFocused();

  // An unsaved edit: the menu says so and offers to save first.
  await page.locator(".react-flow__node-agent").first().click();
  const inspector = page.getByRole("complementary", { name: "Inspector" });
  await inspector.getByLabel("Title", { exact: true }).fill("Edited, not saved");
  await exportButton(page).click();
  await expect(exportMenu(page)).toHaveAccessibleDescription(
    "Unsaved changes: the export is the canvas as it is now, not saved v2.",
  );
  await expect(page.getByText("Unsaved changes: the export is the canvas as it is now")).toBeVisible();
  await expect(exportMenu(page).getByRole("menuitem", { name: "Save first" })).toBeVisible();
  const box = await exportMenu(page).boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 1280).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/studio-export-unsaved.png` });
  const axe = await new AxeBuilder({ page }).include("[data-export-panel]").analyze();
  expect(axe.violations).toEqual([]);

  // A click outside closes it.
  await page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
  await expect(exportMenu(page)).toBeHidden();

  // The JSON is the canvas with the unsaved edit (the server still has the saved version), and the menu closes.
  const exported = await downloadJson(page);
  await expect(exportMenu(page)).toBeHidden();
  expect(exported.name).toMatch(/^export-\d+\.json$/);
  const agents = exported.body.agents as Array<{ title?: string }>;
  expect(agents[0]?.title).toBe("Edited, not saved");
  await expect(status(page)).toHaveText(`Exported ${exported.name} (with unsaved changes)`);
  const saved = (await (await page.request.get(`/api/projects/${id}`)).json()) as {
    definitions: { agents: Array<{ title?: string }> };
  };
  expect(saved.definitions.agents[0]?.title).toBe("Assistant");

  // Save first: the notice goes away and the export matches the saved version.
  await exportButton(page).click();
  await exportMenu(page).getByRole("menuitem", { name: "Save first" }).click();
  await expect(status(page)).toHaveText("Saved v3");
  const again = await downloadJson(page);
  const savedNow = (await (await page.request.get(`/api/projects/${id}`)).json()) as { definitions: unknown };
  expect(again.body).toEqual(savedNow.definitions);
  await exportButton(page).click();
  await expect(exportMenu(page)).toHaveAccessibleDescription("");
  await expect(exportMenu(page).getByRole("menuitem", { name: "Save first" })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // The open menu fits the viewport at the other common widths too.
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(viewport);
    await exportButton(page).click();
    await expect(exportMenu(page)).toBeVisible();
    const menu = await exportMenu(page).boundingBox();
    expect(menu && menu.x >= 0 && menu.x + menu.width <= viewport.width).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/studio-export-${viewport.width}.png` });
    await page.keyboard.press("Escape");
  }
});
