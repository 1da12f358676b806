// The code pane: highlighted TypeScript that stays editable while the canvas has errors, problems
// marked on their lines, typing that fixes the canvas after a pause, a syntax error that marks its
// line and changes nothing, canvas edits that show up in the code, and a panel resized by keyboard.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1440, height: 900 } });
// About 20 s each on an idle machine; the margin is for a loaded shared CI runner.
test.describe.configure({ timeout: 90_000 });

async function openChatStudio(page: Page, label: string) {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  await page.goto(`/projects/${id}/studio`);
  await page.getByRole("button", { name: "Templates" }).click();
  await page
    .getByRole("menu", { name: "Templates" })
    .getByRole("menuitem", { name: /chat assistant/i })
    .click();
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(problems(page)).toContainText("No problems");
}

const problems = (page: Page) => page.getByRole("region", { name: "Problems" });
const editor = (page: Page) => page.getByRole("textbox", { name: "TypeScript code" });
const codeStatus = (page: Page) => page.getByRole("status", { name: "Code status" });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Inspector" });
const errorMarks = (page: Page) => page.locator(".cm-lintRange-error");

/** Each node's id and place on the canvas (sorted: applied code may list the nodes in another order). */
async function positions(page: Page): Promise<string[]> {
  const placed = await page
    .locator(".react-flow__node")
    .evaluateAll((nodes) =>
      nodes.map((element) => `${element.dataset.id} ${(element as HTMLElement).style.transform}`),
    );
  return placed.sort();
}

test("the code is highlighted, keeps showing while the canvas has errors, and fixes them by typing", async ({
  page,
}) => {
  await openChatStudio(page, "Code pane fix");
  await expect(editor(page)).toContainText("export const assistant_chat = definePrompt({");
  // Highlighted: the keyword `export` is drawn in the code keyword colour.
  const keyword = page.locator(".cm-line span", { hasText: /^export$/ }).first();
  await expect(keyword).toHaveCSS("color", "rgb(124, 58, 237)");
  await expect(page.locator(".cm-lineNumbers .cm-gutterElement", { hasText: /^1$/ })).toBeVisible();

  // A canvas edit shows up in the code.
  await page.getByRole("button", { name: "Add prompt", exact: true }).click();
  await inspector(page).getByLabel("Name", { exact: true }).fill("helper");
  await inspector(page).getByLabel("Tool description", { exact: true }).fill("Helps.");
  await expect(editor(page)).toContainText('name: "helper"');
  // The new prompt has no model: a problem on the canvas, marked on its line in the code.
  await expect(problems(page)).toContainText("prompt helper");
  await expect(codeStatus(page)).toContainText("marked in the code");
  const before = await positions(page);

  // F8 moves to the marked problem; the cursor lands in `model: ""` and the fix is typed there.
  await editor(page).click();
  await page.keyboard.press("F8");
  await expect(page.locator(".cm-activeLine")).toContainText('model: "",');
  await expect(page.locator(".cm-activeLine .cm-lintRange-error")).toHaveCount(1);
  await page.screenshot({ path: `${ARTIFACTS}/studio-code-pane-error.png` });
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  // One input event, so a slow machine cannot split it into two applies.
  await page.keyboard.insertText("assistant_model");
  await expect(codeStatus(page)).toContainText("Editing");
  await expect(problems(page)).toContainText("No problems");
  await expect(codeStatus(page)).toHaveText("In sync with the canvas");
  await expect(errorMarks(page)).toHaveCount(0);
  // Applied to the canvas as an edge into the model; no node moved or changed id.
  expect(await positions(page)).toEqual(before);
  await expect(page.locator(".react-flow__edge")).toHaveCount(3);

  // The whole burst of typing is one undo step.
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+z");
  await expect(problems(page)).toContainText("prompt helper");
  await expect(editor(page)).toContainText('model: "",');
  await page.keyboard.press("Control+Shift+z");
  await expect(problems(page)).toContainText("No problems");
});

test("a syntax error marks its line and leaves the canvas as it was", async ({ page }) => {
  await openChatStudio(page, "Code pane syntax");
  const before = await positions(page);
  await editor(page).getByText("export const assistant_chat = definePrompt({").click();
  await page.keyboard.press("End");
  await page.keyboard.insertText(" {{;");
  // The header says it in a few words, whole (the error itself is in Problems and the tooltip), and
  // Apply is off until the text changes: applying it again could only fail the same way.
  await expect(codeStatus(page)).toHaveText(/^Line \d+ cannot be read; canvas unchanged$/);
  await expect(codeStatus(page)).toHaveAttribute(
    "title",
    /cannot be read; canvas unchanged: \d+:\d+ error: /,
  );
  expect(await codeStatus(page).evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  const applyNow = page.getByRole("button", { name: "Apply now" });
  await expect(applyNow).toBeDisabled();
  await expect(applyNow).toHaveAttribute("title", /Nothing to apply: line \d+ cannot be read/);
  await page.screenshot({ path: `${ARTIFACTS}/studio-code-pane-unreadable.png` });
  await expect(page.locator(".cm-activeLine .cm-lintRange-error")).toHaveCount(1);
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(1);
  await page.waitForTimeout(800);
  expect(await positions(page)).toEqual(before);
  // The Problems panel lists it too (it does not claim the project has no problems).
  await expect(problems(page)).toContainText("Problems (1)");
  await expect(problems(page).getByTestId("code-problem")).toContainText(
    /code, line \d+.*cannot be read, so the canvas keeps its last good state/,
  );
  await expect(problems(page)).not.toContainText("No problems");
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);

  // Undo in the editor: the code reads again and the pane and the panel say so.
  await page.keyboard.press("Control+z");
  await expect(codeStatus(page)).toHaveText("In sync with the canvas");
  await expect(applyNow).toBeDisabled();
  await expect(applyNow).toHaveAttribute("title", /^Apply the code to the canvas now \(Ctrl\+Enter\)$/);
  await expect(errorMarks(page)).toHaveCount(0);
  await expect(problems(page)).toContainText("No problems");
});

test("JSON typed into the inspector that does not parse is listed in Problems and kept, never taken as saved", async ({
  page,
}) => {
  await openChatStudio(page, "Unapplied field");
  await page.getByRole("button", { name: "Add tool", exact: true }).click();
  await inspector(page).getByLabel("Kind").selectOption("http");
  const args = inspector(page).getByLabel("Arguments schema (JSON Schema)");
  await expect(problems(page)).toContainText("No problems");
  await expect(args).toHaveValue(/"query"/);
  const typed = '{ "type": "object", "properties": { "query": ';
  await args.fill(typed);
  await expect(args).toHaveAccessibleDescription(/Not applied \(not saved\): Not valid JSON yet/);

  // Problems lists it (and counts it) as an error on the tool; the code pane does not claim to hold it.
  const unapplied = problems(page).getByTestId("unapplied-field");
  await expect(unapplied).toHaveCount(1);
  await expect(unapplied).toContainText(/error\s*tool tool_1 · Arguments schema/);
  await expect(unapplied).toContainText("Not applied, so Save does not store it: Not valid JSON yet");
  await expect(problems(page)).toContainText("Problems (1)");
  // The tool's card counts it too, as Problems does.
  await expect(
    page.locator(".react-flow__node-tool").filter({ hasText: "tool_1" }).locator(".studio-card"),
  ).toHaveAttribute("data-errors", "1");
  await expect(codeStatus(page)).toHaveText(/not with an inspector field that cannot be applied/);
  await page.screenshot({ path: `${ARTIFACTS}/studio-unapplied-field.png` });

  // Save asks first and says what will not be saved.
  await page.keyboard.press("Control+s");
  const ask = page.getByRole("dialog", { name: "Save with 1 problem?" });
  await expect(ask).toContainText("An inspector field holds text that cannot be applied yet");
  await ask.getByRole("button", { name: "Cancel" }).click();

  // Selecting another node and coming back (from Problems) shows the text again, still unapplied.
  await page.locator(".react-flow__node-agent").click();
  await expect(args).toHaveCount(0);
  await expect(unapplied).toHaveCount(1);
  await unapplied.getByRole("button").click();
  await expect(args).toHaveValue(typed);
  await expect(args).toHaveAttribute("aria-invalid", "true");

  // Finished, it parses, applies and the problem is gone.
  await args.fill(
    '{ "type": "object", "properties": { "query": { "type": "string" }, "limit": { "type": "number" } }, "required": ["query"] }',
  );
  await expect(unapplied).toHaveCount(0);
  await expect(problems(page)).toContainText("No problems");
  await expect(
    page.locator(".react-flow__node-tool").filter({ hasText: "tool_1" }).locator(".studio-card"),
  ).toHaveAttribute("data-errors", "0");
  await expect(codeStatus(page)).toHaveText("In sync with the canvas");
  await expect(editor(page)).toContainText("limit: z.number()");
});

test("the panel resizes by keyboard, maximises, collapses and remembers its size", async ({ page }) => {
  await openChatStudio(page, "Code pane resize");
  const separator = page.getByRole("separator", { name: "Resize the problems and code panel" });
  const start = Number(await separator.getAttribute("aria-valuenow"));
  await separator.focus();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(separator).toHaveAttribute("aria-valuenow", String(start + 48));
  await page.keyboard.press("ArrowDown");
  await expect(separator).toHaveAttribute("aria-valuenow", String(start + 24));

  // End maximises up to the toolbar: the canvas gives up its height.
  await page.keyboard.press("End");
  await expect
    .poll(async () => Number(await separator.getAttribute("aria-valuenow")))
    .toBe(Number(await separator.getAttribute("aria-valuemax")));
  expect((await page.locator(".react-flow").boundingBox())?.height ?? 0).toBeLessThan(2);
  await page.screenshot({ path: `${ARTIFACTS}/studio-code-pane-maximised.png` });
  await separator.dblclick();
  await expect(separator).toHaveAttribute("aria-valuenow", String(start + 24));

  // The size survives a reload.
  await page.reload();
  await expect(separator).toHaveAttribute("aria-valuenow", String(start + 24));

  // Hidden, the panel keeps one bar; shown again, the code is back.
  await page.getByRole("button", { name: "Hide", exact: true }).click();
  await expect(editor(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Show", exact: true })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(editor(page)).toBeVisible();

  const axe = await new AxeBuilder({ page }).include("#studio-bottom-panel").analyze();
  const found = axe.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(found).toEqual([]);
});
