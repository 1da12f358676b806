// The studio's project-level round trips: export a project as a zip and import it into a new
// project through the UI (the definitions must come back equal), and the version history dialog
// (diff summary, restore an earlier save, the canvas reloads from it).
import { expect, type Page, test } from "@playwright/test";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1600, height: 1000 } });

const status = (page: Page) => page.getByRole("status", { name: "Studio status" });
const modelNode = (page: Page, name: string) =>
  page.locator(".react-flow__node-model").filter({ has: page.getByText(name, { exact: true }) });

async function createProjectThroughUi(page: Page, name: string): Promise<string> {
  await page.goto("/");
  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  // A new project opens in the studio; these tests start from its page.
  await expect(page).toHaveURL(/\/projects\/[^/]+\/studio$/, { timeout: 20_000 });
  const id = /projects\/([^/?#]+)/.exec(page.url())?.[1] ?? "";
  await page.goto(`/projects/${id}`);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  return id;
}

async function definitionsOf(page: Page, id: string): Promise<unknown> {
  const project = (await (await page.request.get(`/api/projects/${id}`)).json()) as { definitions: unknown };
  return project.definitions;
}

test("exports a project as a zip and imports it into a new project with the same definitions", async ({
  page,
}) => {
  const sourceId = await createProjectThroughUi(page, `Zip source ${Date.now()}`);
  await page.getByRole("link", { name: "Open studio" }).click();
  await page.getByRole("button", { name: "Templates" }).click();
  await page
    .getByRole("menu", { name: "Templates" })
    .getByRole("menuitem", { name: /asset subagent/i })
    .click();
  // The template lands once it is laid out (ELK loads on demand).
  await expect(page.locator(".react-flow__node")).toHaveCount(12);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(status(page)).toHaveText("Saved v2");

  await page.getByRole("button", { name: "Export" }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Standard Agents project (.zip)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const zipPath = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(zipPath);

  const targetId = await createProjectThroughUi(page, `Zip target ${Date.now()}`);
  await page.getByLabel("Import definitions").setInputFiles(zipPath);
  await expect(page.getByRole("status")).toContainText(
    `Imported ${download.suggestedFilename()} as version 2`,
  );
  await expect(page.getByRole("region", { name: "Agents" })).toContainText("asset_subagent");
  await page.screenshot({ path: `${ARTIFACTS}/zip-imported.png`, fullPage: true });

  expect(await definitionsOf(page, targetId)).toEqual(await definitionsOf(page, sourceId));

  // The imported project opens in the studio with the same nodes.
  await page.getByRole("link", { name: "Open studio" }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(12);
});

test("opens the version history in the studio, shows a diff and restores an earlier save", async ({
  page,
}) => {
  await createProjectThroughUi(page, `History ${Date.now()}`);
  await page.getByRole("link", { name: "Open studio" }).click();
  const inspector = page.getByRole("complementary", { name: "Inspector" });

  await page.getByRole("button", { name: "Add model", exact: true }).click();
  await inspector.getByLabel("Name", { exact: true }).fill("first");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(status(page)).toHaveText("Saved v2");

  await page.getByRole("button", { name: "Add model", exact: true }).click();
  await inspector.getByLabel("Name", { exact: true }).fill("second");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(status(page)).toHaveText("Saved v3");
  await expect(page.locator(".react-flow__node")).toHaveCount(2);

  await page.getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "Version history" });
  const latest = history.getByRole("listitem", { name: "Version 3" });
  await expect(latest).toContainText("(current)");
  await expect(latest).toContainText("2 models");
  // The dialog is wide enough for a version's counts whole, beside its actions.
  const counts = latest.getByTitle(/agents? · .* tools?$/);
  expect(await counts.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  // Anchored at the top: opening a diff grows the dialog downwards, the rows above stay put.
  const before = await latest.boundingBox();
  await latest.getByRole("button", { name: "Diff with previous" }).click();
  await expect(latest.getByRole("region", { name: "Changes in version 3" })).toContainText(
    "Added models: second",
  );
  expect((await latest.boundingBox())?.y).toBe(before?.y);
  await page.screenshot({ path: `${ARTIFACTS}/studio-history.png` });

  const firstSave = history.getByRole("listitem", { name: "Version 2" });
  await expect(firstSave).toContainText("1 model ·");
  await firstSave.getByRole("button", { name: "Restore" }).click();
  await firstSave.getByRole("button", { name: "Restore version 2" }).click();

  await expect(history).toBeHidden();
  await expect(status(page)).toHaveText("Restored as v4");
  await expect(page.getByText("based on v4")).toBeVisible();
  await expect(page.locator(".react-flow__node")).toHaveCount(1);
  await expect(modelNode(page, "first")).toBeVisible();
  await expect(modelNode(page, "second")).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/studio-history-restored.png` });

  // The restore is a saved version: a fresh load shows the same canvas, and saving again works.
  await page.reload();
  await expect(page.locator(".react-flow__node")).toHaveCount(1);
  await expect(modelNode(page, "first")).toBeVisible();
});
