// The studio from an empty project: apply a template, run it in the playground and follow it on the
// full thread page; edit the TypeScript and apply it; a syntax error changes nothing; the empty
// canvas offers a template, and one applied over nodes says so; auto layout is one undo step.
import { expect, type Locator, type Page, test } from "@playwright/test";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1600, height: 1000 } });

async function openEmptyStudio(page: Page, label: string): Promise<string> {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node")).toHaveCount(0);
  return id;
}

async function applyAssetTemplate(page: Page) {
  await page.getByRole("button", { name: "Templates" }).click();
  const menu = page.getByRole("menu", { name: "Templates" });
  await expect(menu).toContainText("Demo models (scripted): no provider needed");
  await menu.getByRole("menuitem", { name: /Orchestrator \+ asset subagent/ }).click();
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(2);
}

const node = (page: Page, kind: string, name: string): Locator =>
  page.locator(`.react-flow__node-${kind}`).filter({ hasText: name });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Inspector" });
const problems = (page: Page) => page.getByRole("region", { name: "Problems" });

async function positions(page: Page): Promise<string[]> {
  return page
    .locator(".react-flow__node")
    .evaluateAll((nodes) =>
      nodes.map((element) => `${element.dataset.id} ${(element as HTMLElement).style.transform}`),
    );
}

test("applies the asset template on an empty project, runs it and follows the run live", async ({ page }) => {
  await openEmptyStudio(page, "Template run");
  // With nothing to run, Run opens the playground, which says why.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const playground = page.getByRole("complementary", { name: "Playground" });
  await expect(playground).toContainText("Add an ai_human agent to run");
  await expect(playground.getByRole("button", { name: /start run/i })).toHaveCount(0);
  await playground.getByRole("button", { name: "Close the playground" }).click();
  await expect(playground).toHaveCount(0);
  await applyAssetTemplate(page);

  await expect(node(page, "agent", "orchestrator")).toBeVisible();
  await expect(node(page, "agent", "asset_subagent")).toBeVisible();
  await expect(page.locator(".react-flow__node-prompt")).toHaveCount(4);
  await expect(page.locator(".react-flow__node-model")).toHaveCount(3);
  await expect(page.locator(".studio-edge-subagent")).toHaveCount(1);
  await expect(problems(page)).toContainText("No problems");
  await expect(page.getByRole("status", { name: "Studio status" })).toContainText(
    "Demo models (scripted): no provider needed",
  );
  await page.screenshot({ path: `${ARTIFACTS}/studio-template-asset.png` });

  // Applying a template is one undoable change.
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(0);
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(2);

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await playground.getByLabel("First message").fill("a blue shield");
  await playground.getByRole("button", { name: "Save and start run" }).click();
  const fullPage = playground.getByRole("link", { name: /Open full thread page/ });
  await expect(fullPage).toHaveAttribute("href", /^\/threads\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  await expect(page).toHaveURL(/\/studio$/);
  await page.goto((await fullPage.getAttribute("href")) ?? "");

  const tree = page.getByRole("tree", { name: "Threads" });
  // The child is named by its instance name, then its agent ("red_potion asset_subagent").
  await expect(tree.getByRole("treeitem", { name: /asset_subagent/ })).toHaveAttribute("aria-level", "2");
  await expect(tree.getByRole("treeitem", { name: /^orchestrator/ })).toHaveAttribute("data-status", "idle", {
    timeout: 20_000,
  });
  const rows = page.getByRole("list", { name: "Messages" }).getByTestId("message");
  await expect(rows.filter({ hasText: "a blue shield" }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "The asset is ready:" })).toHaveCount(1, { timeout: 20_000 });
  await expect(rows.filter({ hasText: "The asset is ready:" })).toContainText("Approved:");
  await page.screenshot({ path: `${ARTIFACTS}/studio-template-run.png`, fullPage: true });
});

test("applies edited code to the canvas after a pause; a syntax error marks its line and changes nothing", async ({
  page,
}) => {
  await openEmptyStudio(page, "Apply code");
  await applyAssetTemplate(page);
  const before = await positions(page);

  // The code pane is a live editor: a word typed over applies to the canvas after a short pause.
  const code = page.getByRole("textbox", { name: "TypeScript code" });
  const old = "Plans game assets and delegates each one to the asset subagent.";
  await expect(code).toContainText(old);
  await code.getByText(old).dblclick({ position: { x: 20, y: 5 } });
  await page.keyboard.type("Directs");
  await expect(page.getByRole("status", { name: "Studio status" })).toHaveText(
    "Applied the code to the canvas",
  );
  expect(await positions(page)).toEqual(before);

  await node(page, "agent", "orchestrator").click();
  const edited = "Directs game assets and delegates each one to the asset subagent.";
  await expect(inspector(page).getByLabel("Description", { exact: true })).toHaveValue(edited);

  // A syntax error: its line is marked and named in the pane; the canvas stays as it was.
  await code.getByText('import { z } from "zod";').click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("const broken = {{;");
  const codeStatus = page.getByRole("status", { name: "Code status" });
  await expect(codeStatus).toHaveText("Line 5 cannot be read; canvas unchanged");
  await expect(codeStatus).toHaveAttribute(
    "title",
    /^Line 5 cannot be read; canvas unchanged: 5:\d+ error: /,
  );
  await expect(page.locator(".cm-lintRange-error")).toHaveCount(1);
  await page.screenshot({ path: `${ARTIFACTS}/studio-code-syntax-error.png` });
  expect(await positions(page)).toEqual(before);
  await expect(page.locator(".react-flow__node")).toHaveCount(before.length);
  await expect(inspector(page).getByLabel("Description", { exact: true })).toHaveValue(edited);
});

test("an empty canvas offers a template; a template applied over nodes says what it replaced and how to get them back", async ({
  page,
}) => {
  await openEmptyStudio(page, "Empty canvas");
  const hint = page.getByTestId("empty-canvas-hint");
  await expect(hint).toContainText("This canvas is empty");
  await expect(hint).toContainText("drag a node from the palette");
  // Centred on the canvas.
  const pane = await page.locator(".react-flow").boundingBox();
  const box = await hint.getByRole("button", { name: "Start from a template" }).boundingBox();
  if (!pane || !box) throw new Error("the canvas and the hint's button must be laid out");
  expect(Math.abs(box.x + box.width / 2 - (pane.x + pane.width / 2))).toBeLessThan(4);
  await page.screenshot({ path: `${ARTIFACTS}/studio-empty-canvas.png` });

  // Its button opens the toolbar's Templates menu; a template fills the canvas and the hint goes.
  await hint.getByRole("button", { name: "Start from a template" }).click();
  const menu = page.getByRole("menu", { name: "Templates" });
  await expect(menu).toBeVisible();
  await menu.getByRole("menuitem", { name: /chat assistant/i }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(hint).toHaveCount(0);
  const status = page.getByRole("status", { name: "Studio status" });
  await expect(status).toContainText("New from template: Chat assistant.");
  await expect(status).not.toContainText("replaced");

  // Over a canvas with nodes, the status says what went and that Undo brings it back.
  await applyAssetTemplate(page);
  await expect(status).toContainText("It replaced 3 nodes; Undo (Ctrl+Z) brings them back.");
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+z");
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(node(page, "agent", "assistant")).toBeVisible();
  // Undone: the line no longer offers Undo.
  await expect(status).not.toContainText("Undo (Ctrl+Z) brings them back");

  // Deleting every node brings the hint back.
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Delete");
  await expect(page.locator(".react-flow__node")).toHaveCount(0);
  await expect(hint).toBeVisible();
});

test("auto layout lays out the whole canvas as one step that undo reverts", async ({ page }) => {
  await openEmptyStudio(page, "Layout");
  await applyAssetTemplate(page);
  const laidOut = await positions(page);

  // Drag the orchestrator away, so the layout has something to fix.
  await page.getByRole("button", { name: "Fit View" }).click();
  const box = await node(page, "agent", "orchestrator").boundingBox();
  if (!box) throw new Error("orchestrator not visible");
  // (Grab the card by its right end: fit view keeps text legible, so the left of a wide canvas may
  // sit under the node palette.)
  await page.mouse.move(box.x + box.width - 30, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 20, box.y + 300, { steps: 10 });
  await page.mouse.up();
  const dragged = await positions(page);
  expect(dragged).not.toEqual(laidOut);

  await page.getByRole("button", { name: "Auto layout" }).click();
  await expect.poll(() => positions(page)).toEqual(laidOut);
  await page.screenshot({ path: `${ARTIFACTS}/studio-auto-layout.png` });

  await page.getByRole("button", { name: "Undo" }).click();
  await expect.poll(() => positions(page)).toEqual(dragged);

  // A new node lands in view, not on top of anything (where exactly: e2e/studio-palette.spec.ts).
  await page.getByRole("button", { name: "Fit View" }).click();
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(dragged.length + 1);
  const note = await page.locator(".react-flow__node-note").boundingBox();
  if (!note) throw new Error("note not visible");
  const others = await page
    .locator(".react-flow__node:not(.react-flow__node-note)")
    .evaluateAll((nodes) => nodes.map((element) => element.getBoundingClientRect().toJSON() as DOMRect));
  for (const other of others) {
    const apart =
      note.x >= other.x + other.width ||
      other.x >= note.x + note.width ||
      note.y >= other.y + other.height ||
      other.y >= note.y + note.height;
    expect(apart, JSON.stringify(other)).toBe(true);
  }
});
