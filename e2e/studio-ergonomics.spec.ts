// Studio ergonomics with the keyboard and the mouse: copy in one project and paste in another
// (system clipboard, and localStorage when clipboard access is denied), duplicate and undo,
// multi-select and delete, the command palette, the shortcuts dialog, the models view, and switching
// a tool's kind.
import { type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1600, height: 1000 } });

async function createProject(page: Page, label: string): Promise<string> {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function openEmptyStudio(page: Page, label: string): Promise<string> {
  const id = await createProject(page, label);
  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node")).toHaveCount(0);
  return id;
}

/** The chat template: agent `assistant`, prompt `assistant_chat`, model `assistant_model`. */
async function applyChatTemplate(page: Page) {
  await page.getByRole("button", { name: "Templates" }).click();
  await page
    .getByRole("menu", { name: "Templates" })
    .getByRole("menuitem", { name: /chat assistant/i })
    .click();
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(problems(page)).toContainText("No problems");
}

const node = (page: Page, kind: string, name: string): Locator =>
  page.locator(`.react-flow__node-${kind}`).filter({ has: page.getByText(name, { exact: true }) });
const selectedNodes = (page: Page) => page.locator(".react-flow__node.selected");
const inspector = (page: Page) => page.getByRole("complementary", { name: "Inspector" });
const problems = (page: Page) => page.getByRole("region", { name: "Problems" });
const status = (page: Page) => page.getByRole("status", { name: "Studio status" });

async function nodeNames(page: Page): Promise<string[]> {
  const titles = await page
    .locator(".react-flow__node [data-testid=studio-node] [data-testid=node-name]")
    .allTextContents();
  return titles.sort();
}

/** Clicks on empty canvas so that keyboard shortcuts go to the studio, not to a field. */
async function focusCanvas(page: Page) {
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
}

async function copyTemplateAndPasteIntoNewProject(context: BrowserContext) {
  const page = await context.newPage();
  await openEmptyStudio(page, "Copy source");
  await applyChatTemplate(page);
  await focusCanvas(page);
  await page.keyboard.press("Control+a");
  await expect(selectedNodes(page)).toHaveCount(3);
  await page.keyboard.press("Control+c");
  await expect(status(page)).toContainText("Copied 3 nodes");

  const target = await context.newPage();
  await openEmptyStudio(target, "Paste target");
  await focusCanvas(target);
  await target.keyboard.press("Control+v");
  await expect(target.locator(".react-flow__node")).toHaveCount(3);
  return { source: page, target };
}

test("copies nodes in one project and pastes them in another through the system clipboard", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { source, target } = await copyTemplateAndPasteIntoNewProject(context);
  const clipboard = await source.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(clipboard)).toMatchObject({ type: "tandem/studio-nodes", version: 1 });

  // Names are free in the new project, so they are kept; the edges between the nodes came along.
  expect(await nodeNames(target)).toEqual(["assistant", "assistant_chat", "assistant_model"]);
  await expect(target.locator(".react-flow__edge")).toHaveCount(2);
  await expect(selectedNodes(target)).toHaveCount(3);
  await expect(problems(target)).toContainText("No problems");

  // Pasting again makes unique copies, wired to each other, as one undo step.
  await target.getByRole("button", { name: "Paste", exact: true }).click();
  await expect(target.locator(".react-flow__node")).toHaveCount(6);
  await expect(node(target, "agent", "assistant_copy")).toBeVisible();
  await expect(node(target, "agent", "assistant_copy")).toContainText("assistant_chat_copy");
  await expect(target.locator(".react-flow__edge")).toHaveCount(4);
  await expect(selectedNodes(target)).toHaveCount(3);
  await target.getByRole("button", { name: "Undo" }).click();
  await expect(target.locator(".react-flow__node")).toHaveCount(3);
  await context.close();
});

test("falls back to local storage when clipboard access is denied", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  // No clipboard permissions: both navigator.clipboard calls are refused.
  await context.addInitScript(() => {
    const refuse = () => Promise.reject(new DOMException("denied", "NotAllowedError"));
    Object.defineProperty(navigator, "clipboard", { value: { readText: refuse, writeText: refuse } });
  });
  const { target } = await copyTemplateAndPasteIntoNewProject(context);
  expect(await nodeNames(target)).toEqual(["assistant", "assistant_chat", "assistant_model"]);
  await expect(target.locator(".react-flow__edge")).toHaveCount(2);
  await context.close();
});

test("duplicates the selection with Ctrl+D and undoes it in one step", async ({ page }) => {
  await openEmptyStudio(page, "Duplicate");
  await applyChatTemplate(page);
  await node(page, "prompt", "assistant_chat").click();
  await node(page, "model", "assistant_model").click({ modifiers: ["Shift"] });
  await expect(selectedNodes(page)).toHaveCount(2);
  await page.keyboard.press("Control+d");
  await expect(page.locator(".react-flow__node")).toHaveCount(5);
  await expect(status(page)).toContainText("Duplicated 2 nodes");
  // The copies are the new selection, and the copied prompt uses the copied model.
  await expect(selectedNodes(page)).toHaveCount(2);
  await expect(node(page, "prompt", "assistant_chat_copy")).toHaveClass(/selected/);
  await expect(node(page, "model", "assistant_model_copy")).toHaveClass(/selected/);
  await expect(page.locator(".react-flow__edge")).toHaveCount(3);
  await expect(problems(page)).toContainText("No problems");

  await page.keyboard.press("Control+z");
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await page.keyboard.press("Control+Shift+z");
  await expect(page.locator(".react-flow__node")).toHaveCount(5);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(3);

  // The toolbar button duplicates a single node too, and the inspector shows the copy.
  await node(page, "agent", "assistant").click();
  await page.getByRole("button", { name: "Duplicate", exact: true }).click();
  await expect(inspector(page).getByLabel("Name", { exact: true })).toHaveValue("assistant_copy");

  // Right-click offers the same commands, keyboard first.
  await node(page, "model", "assistant_model").click({ button: "right" });
  const menu = page.getByRole("menu", { name: "Canvas actions" });
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: /Duplicate/ })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(menu).toBeHidden();
  await expect(page.locator(".react-flow__node-model")).toHaveCount(2);
  await expect(inspector(page).getByLabel("Name", { exact: true })).toHaveValue("assistant_model_copy");
});

test("selects several nodes and edges and deletes them as one undo step", async ({ page }) => {
  await openEmptyStudio(page, "Delete");
  await applyChatTemplate(page);
  await page.getByRole("button", { name: "Fit View" }).click();

  // A box drawn with Shift selects every node inside it. Drawn again from an empty selection if it did
  // not: on a loaded machine the canvas may still be settling after the fit. (CI once failed this test
  // at one of its counts, which one unknown; the two mouse-geometry steps now measure and try again.)
  await expect(async () => {
    await focusCanvas(page);
    await expect(selectedNodes(page)).toHaveCount(0, { timeout: 1_000 });
    const pane = await page.locator(".react-flow__pane").boundingBox();
    if (!pane) throw new Error("no canvas");
    await page.keyboard.down("Shift");
    await page.mouse.move(pane.x + 4, pane.y + 4);
    await page.mouse.down();
    await page.mouse.move(pane.x + pane.width - 4, pane.y + pane.height - 4, { steps: 10 });
    await page.mouse.up();
    await page.keyboard.up("Shift");
    await expect(selectedNodes(page)).toHaveCount(3, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await focusCanvas(page);
  await expect(selectedNodes(page)).toHaveCount(0);

  // Shift-click adds to the selection; the inspector says what is selected.
  await node(page, "prompt", "assistant_chat").click();
  await node(page, "model", "assistant_model").click({ modifiers: ["Shift"] });
  await expect(inspector(page)).toContainText("2 nodes and 0 edges selected");
  await page.keyboard.press("Delete");
  await expect(page.locator(".react-flow__node")).toHaveCount(1);
  await expect(page.locator(".react-flow__edge")).toHaveCount(0);
  await expect(status(page)).toContainText("Deleted 2 nodes");
  // The agent's side no longer names the deleted prompt.
  await expect(problems(page)).not.toContainText("No problems");

  await page.keyboard.press("Control+z");
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
  await expect(problems(page)).toContainText("No problems");

  // Backspace deletes a selected edge alone.
  // (A straight, level edge has a zero-height box, so click its line halfway between its handles.
  // Measured and clicked again until it is selected: the restored nodes may still be settling.)
  await expect(async () => {
    const from = await page
      .locator('.react-flow__node[data-id="prompt:assistant_chat"] .react-flow__handle.source')
      .boundingBox();
    const to = await page
      .locator('.react-flow__node[data-id="model:assistant_model"] .react-flow__handle.target')
      .boundingBox();
    if (!from || !to) throw new Error("model edge handles not visible");
    await page.mouse.click(
      (from.x + from.width / 2 + to.x + to.width / 2) / 2,
      (from.y + from.height / 2 + to.y + to.height / 2) / 2,
    );
    await expect(page.locator(".react-flow__edge.studio-edge-model.selected")).toHaveCount(1, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 10_000 });
  await page.keyboard.press("Backspace");
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
});

test("finds a node in the command palette, focuses and selects it, and runs commands", async ({ page }) => {
  await openEmptyStudio(page, "Palette");
  await page.getByRole("button", { name: "Templates" }).click();
  await page.getByRole("menuitem", { name: /Orchestrator \+ asset subagent/ }).click();
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(2);
  await focusCanvas(page);

  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toBeVisible();
  const search = palette.getByRole("combobox", { name: "Search nodes and commands" });
  await expect(search).toBeFocused();
  await search.fill("asset_sub");
  const results = palette.getByRole("listbox", { name: "Results" });
  await expect(results.getByRole("option").first()).toContainText("asset_subagent");
  await expect(results.getByRole("option").first().locator("span").last()).toHaveText("Dual-AI agent");
  await expect(results.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await page.screenshot({ path: `${ARTIFACTS}/studio-command-palette.png` });
  await page.keyboard.press("Enter");
  await expect(palette).toBeHidden();
  await expect(selectedNodes(page)).toHaveCount(1);
  await expect(node(page, "agent", "asset_subagent")).toHaveClass(/selected/);
  await expect(inspector(page).getByLabel("Name", { exact: true })).toHaveValue("asset_subagent");
  await expect(node(page, "agent", "asset_subagent")).toBeInViewport();

  // Arrow keys move through the results; a kind finds every node of that kind.
  await page.getByRole("button", { name: "Command palette" }).click();
  await search.fill("model");
  const options = results.getByRole("option");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(options.last()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();

  // Commands run from the palette: add a tool, then undo it.
  const tools = await page.locator(".react-flow__node-tool").count();
  await page.keyboard.press("Control+k");
  await search.fill("add tool");
  await page.keyboard.press("Enter");
  await expect(page.locator(".react-flow__node-tool")).toHaveCount(tools + 1);
  await page.keyboard.press("Control+k");
  await search.fill("undo");
  // Every result says what it is in the last column; a command's shortcut is shown as keys before it.
  const undo = results.getByRole("option").first();
  await expect(undo.locator("kbd")).toHaveText("Ctrl+Z");
  await expect(undo.locator("span").last()).toHaveText("Edit");
  await page.keyboard.press("Enter");
  await expect(page.locator(".react-flow__node-tool")).toHaveCount(tools);
  await page.keyboard.press("Control+k");
  await search.fill("no such thing at all");
  await expect(palette.getByRole("status")).toContainText("Nothing matches");
  await page.keyboard.press("Escape");
});

test("opens the keyboard shortcuts with ? and from the toolbar", async ({ page }) => {
  await openEmptyStudio(page, "Shortcuts");
  await focusCanvas(page);
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  const expected: { label: string; keys: string }[] = [
    { label: "Copy", keys: "Ctrl+C" },
    { label: "Paste", keys: "Ctrl+V" },
    { label: "Duplicate", keys: "Ctrl+D" },
    { label: "Delete selection", keys: "Delete or Backspace" },
    { label: "Undo", keys: "Ctrl+Z" },
    { label: "Command palette", keys: "Ctrl+K" },
  ];
  for (const { label, keys } of expected) {
    await expect(help.getByRole("row", { name: label }).first()).toContainText(keys);
  }
  await expect(help).toContainText("Select everything in a box");
  // The code pane's keys (bound from the same definitions) and the keyboard on the canvas.
  const codePane = help.getByRole("table", { name: "In the code pane" });
  await expect(codePane.getByRole("row", { name: "Apply the code to the canvas now" })).toContainText(
    "Ctrl+Enter",
  );
  await expect(codePane.getByRole("row", { name: "Go to the next problem in the code" })).toContainText("F8");
  await expect(
    help.getByRole("row", { name: "Move the selected nodes 5 px (with Shift, 20 px)" }),
  ).toContainText("Arrow keys");
  await expect(help.getByRole("row", { name: "Select the focused node or edge" })).toContainText(
    "Enter, Space",
  );
  await expect(help).not.toContainText("Move it");
  await page.screenshot({ path: `${ARTIFACTS}/studio-shortcuts.png` });
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(help).toBeVisible();
  await help.getByRole("button", { name: "Close" }).click();
  await expect(help).toBeHidden();

  // Typing "?" in a field types it.
  await page.getByRole("button", { name: "Add note" }).click();
  await inspector(page).getByRole("textbox").first().press("?");
  await expect(help).toBeHidden();
});

test("the models view says the project runs on demo models and switches every model in one click", async ({
  page,
}) => {
  await openEmptyStudio(page, "Models");
  await applyChatTemplate(page);
  await page.getByRole("button", { name: "Models" }).click();
  const models = page.getByRole("dialog", { name: "Models" });
  // This test server has no provider configured: it says so plainly and offers nothing else.
  await expect(models).toContainText(
    "This project runs on scripted demo models because no provider is configured on this server.",
  );
  await expect(models.getByRole("radio", { name: /OpenAI-compatible/ })).toBeDisabled();
  await expect(models.getByRole("radio", { name: /Scripted demo models/ })).toBeChecked();
  await models.getByRole("button", { name: "Close" }).click();

  // With a local OpenAI-compatible server configured, one click moves every model to it.
  await page.route("**/api/providers", (route) =>
    route.fulfill({
      json: {
        providers: [
          { provider: "openai", available: false, requires: ["OPENAI_API_KEY"] },
          { provider: "anthropic", available: false, requires: ["ANTHROPIC_API_KEY"] },
          {
            provider: "openai-compatible",
            available: true,
            requires: ["OPENAI_COMPATIBLE_BASE_URL", "OLLAMA_BASE_URL"],
            baseURL: "http://127.0.0.1:11434/v1",
          },
          { provider: "scripted", available: true, requires: [] },
        ],
      },
    }),
  );
  await page.getByRole("button", { name: "Models" }).click();
  await expect(models).toContainText("This project runs on scripted demo models. Switch them");
  const compatible = models.getByRole("radio", { name: /OpenAI-compatible/ });
  await expect(compatible).toBeChecked();
  await expect(models.getByLabel("Model id")).toHaveValue("llama3.2");
  await expect(models.getByLabel("Base URL")).toHaveValue("http://127.0.0.1:11434/v1");
  await models.getByLabel("Model id").fill("qwen2.5");
  await page.screenshot({ path: `${ARTIFACTS}/studio-models.png` });
  await models.getByRole("button", { name: "Switch all models" }).click();
  await expect(models).toBeHidden();
  await expect(node(page, "model", "assistant_model")).toContainText("openai-compatible · qwen2.5");
  await expect(status(page)).toContainText("Switched 1 model to openai-compatible (qwen2.5)");
  await expect(problems(page)).toContainText("No problems");
  await node(page, "model", "assistant_model").click();
  await expect(inspector(page).getByLabel("Base URL")).toHaveValue("http://127.0.0.1:11434/v1");

  await page.getByRole("button", { name: "Undo" }).click();
  await expect(node(page, "model", "assistant_model")).toContainText("scripted · scripted");
});

test("a model on a provider this server has not configured is a warning before any run", async ({ page }) => {
  await openEmptyStudio(page, "Provider warning");
  await applyChatTemplate(page);
  await expect(problems(page)).toContainText("No problems");
  await node(page, "model", "assistant_model").click();
  // This test server has no OPENAI_API_KEY (e2e above: no provider is configured).
  await inspector(page).getByLabel("Provider", { exact: true }).selectOption("openai");
  const warning = problems(page)
    .getByRole("button")
    .filter({ hasText: "OPENAI_API_KEY is not set on this server" });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText("warning");
  // Beside the compile's own warnings (the scripted model's script, which OpenAI does not play).
  await expect(problems(page)).toContainText("has a script, but only the scripted provider plays scripts");
  // It points at the model: clicking it selects the model's node.
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  await warning.click();
  await expect(inspector(page).getByLabel("Name", { exact: true })).toHaveValue("assistant_model");
  // Back on the scripted demo provider, nothing to warn about.
  await inspector(page).getByLabel("Provider", { exact: true }).selectOption("scripted");
  await expect(problems(page)).toContainText("No problems");
});

test("switching a tool's kind to http gives the palette's valid HTTP tool and keeps what the user wrote", async ({
  page,
}) => {
  await openEmptyStudio(page, "Tool kind");
  await page.getByRole("button", { name: "Add tool", exact: true }).click();
  const field = (label: string) => inspector(page).getByLabel(label, { exact: true });
  await expect(field("Description")).toHaveValue("Reads a file from the thread's filesystem.");

  // From the default built-in tool: the HTTP preset's URL, argument schema and description, no problem.
  await field("Kind").selectOption("http");
  await expect(field("URL")).toHaveValue("https://api.example.com/search?q={query}");
  await expect(field("Arguments schema (JSON Schema)")).toHaveValue(/"required": \[\s*"query"\s*\]/);
  await expect(field("Description")).toHaveValue("Searches the example API.");
  await expect(problems(page)).toContainText("No problems");
  await expect(field("URL")).toHaveAttribute("aria-invalid", "false");

  // A description the user wrote survives a switch away and back.
  await field("Description").fill("Looks a word up in the dictionary.");
  await field("Kind").selectOption("code");
  await expect(field("Module id")).toHaveValue("");
  await expect(field("Description")).toHaveValue("Looks a word up in the dictionary.");
  await field("Kind").selectOption("http");
  await expect(field("Description")).toHaveValue("Looks a word up in the dictionary.");
  await expect(field("URL")).toHaveValue("https://api.example.com/search?q={query}");

  // The fields only the old kind has go with it, and Undo brings them back.
  await field("URL").fill("https://dictionary.example.com/define/{query}");
  await field("Kind").selectOption("builtin");
  await expect(field("Description")).toHaveValue("Looks a word up in the dictionary.");
  await expect(field("URL")).toHaveCount(0);
  await focusCanvas(page);
  await page.keyboard.press("Control+z");
  await node(page, "tool", "tool_1").click();
  await expect(field("Kind")).toHaveValue("http");
  await expect(field("URL")).toHaveValue("https://dictionary.example.com/define/{query}");
});
