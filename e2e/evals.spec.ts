// The Evals view (issue 42, docs/evals.md): a project made from the "Refund desk + eval suite"
// template adds the template's suite from the empty state, runs it (live progress bar, every case
// passed, its thread one click away), is broken by the documented edit of the support model's script,
// runs again (two cases fail, each saying why), and the compare view shows them regressed with a link
// to the side-by-side diff. The case editor's form and JSON tabs; "Add to eval suite…" on a thread
// page; the error state of an unknown suite. Axe on every page; screenshots at 1280, 1440 and 1920
// (the gallery's at 1440).
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { REFUND_REPLY, refundDeskTemplate } from "../lib/studio/templates";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";
// The gallery copies go beside the other artifacts (a test run never changes docs/; `npm run
// screenshots` or a copy by hand updates docs/screenshots).
const GALLERY = "e2e-artifacts/gallery";

async function expectNoAxeViolations(page: Page) {
  // A hovered primary button is drawn at 90 % opacity: look at the page at rest.
  await page.mouse.move(1, 1);
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(
    axe.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    ),
  ).toEqual([]);
}

async function shootAtEachWidth(page: Page, name: string, gallery?: string) {
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/${name}-${width}.png`, fullPage: true });
    // The gallery's copy as `npm run screenshots` takes it: the 1440×900 window, the pointer at rest.
    if (gallery && width === 1440) {
      await page.mouse.move(0, 900);
      await page.screenshot({ path: `${GALLERY}/${gallery}`, animations: "disabled", caret: "hide" });
    }
  });
}

async function refundDeskProject(page: Page): Promise<string> {
  const created = await page.request.post("/api/projects", {
    data: { name: `Refund desk ${Date.now()}`, definitions: refundDeskTemplate() },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Runs the suite from its page and waits for the end of the run; returns the run's id. */
async function runSuite(page: Page, cases: number, previousRun?: string): Promise<string> {
  await page.getByRole("button", { name: "Run suite" }).click();
  // The page may already show an earlier run (?run=…): wait for the new run's address.
  await expect(page).toHaveURL((url) => {
    const shown = url.searchParams.get("run");
    return shown !== null && shown !== previousRun;
  });
  const progress = page.getByRole("progressbar", { name: "Run progress" });
  await expect(progress).toBeVisible();
  await expect(page.getByTestId("run-progress")).toHaveText(`Finished: ${cases} of ${cases} case runs`, {
    timeout: 30_000,
  });
  await expect(progress).toHaveAttribute("aria-valuenow", String(cases));
  return new URL(page.url()).searchParams.get("run") ?? "";
}

test("a template's suite runs, a documented edit breaks two cases, and compare shows them regressed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const projectId = await refundDeskProject(page);
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto(`/projects/${projectId}`);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Evals" }).click();
  await expect(page.getByRole("heading", { name: "Evals", level: 1 })).toBeVisible();
  await expect(page.getByTestId("evals-empty")).toContainText("No eval suites yet.");
  const offer = page.getByRole("region", { name: "Suites from the template" });
  await expect(offer).toContainText("Refund desk + eval suite");
  await expectNoAxeViolations(page);
  await shootAtEachWidth(page, "evals-empty", "25-evals-empty.png");

  await offer.getByRole("button", { name: "Add suite “refunds”" }).click();
  await expect(page.getByRole("heading", { name: "refunds", level: 1 })).toBeVisible();
  const cases = page.getByRole("table", { name: "Cases of the suite" });
  await expect(cases.getByTestId("case-row")).toHaveCount(3);
  await expect(cases).toContainText("Simulated user on customer_model");
  await expect(page.getByTestId("runs-empty")).toBeVisible();

  // The case editor: the form and the JSON of the same case; JSON that is wrong names the field.
  await cases.getByRole("button", { name: "Edit broken blender" }).click();
  const editor = page.getByRole("dialog", { name: "Edit case “broken blender”" });
  await expect(editor.getByRole("textbox", { name: "Turn 2" })).toHaveValue("Order 1234.");
  await expect(
    editor.getByRole("listitem", { name: /Assertion 1: the final reply contains “full refund”/ }),
  ).toBeVisible();
  await editor.getByRole("tab", { name: "JSON" }).click();
  const json = editor.getByRole("textbox", { name: /The case as JSON/ });
  await expect(json).toHaveValue(/"Order 1234\."/);
  await json.fill('{ "input": { "messages": ["hi"] } }');
  await editor.getByRole("button", { name: "Save case" }).click();
  await expect(editor.getByRole("alert")).toContainText("name:");
  await expectNoAxeViolations(page);
  await editor.getByRole("button", { name: "Cancel" }).click();
  await expect(editor).toBeHidden();

  const firstRun = await runSuite(page, 3);
  const results = page.getByRole("table", { name: "Results per case" });
  await expect(results.getByTestId("case-result")).toHaveCount(3);
  await expect(results.getByText("failed", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Run summary")).toContainText("100%");
  const threadLink = results.getByRole("link", { name: "Open the thread of broken blender" });
  await expect(threadLink).toHaveAttribute("href", /^\/threads\//);
  await expectNoAxeViolations(page);
  await shootAtEachWidth(page, "evals-run-passed", "25b-evals-run.png");

  // The documented edit (docs/evals.md "Break it"): the support model no longer refunds.
  const broken = refundDeskTemplate();
  const support = broken.models.find((model) => model.name === "support_model")!;
  support.script = support.script?.map((step) =>
    step.text === REFUND_REPLY
      ? { ...step, text: "Thank you. A colleague will look into your order and get back to you." }
      : step,
  );
  const saved = await page.request.put(`/api/projects/${projectId}/definitions`, { data: broken });
  expect(saved.status()).toBe(200);
  await page.reload();
  const secondRun = await runSuite(page, 3, firstRun);
  expect(secondRun).not.toBe(firstRun);
  await expect(results.getByRole("row", { name: "Result of broken blender" })).toContainText("failed");
  await expect(results.getByRole("row", { name: "Result of simulated customer" })).toContainText("failed");
  await expect(results.getByRole("row", { name: "Result of asks for the order number" })).toContainText(
    "passed",
  );

  const history = page.getByRole("table", { name: "Runs of the suite" });
  await expect(history.getByTestId("history-run")).toHaveCount(2);
  await expect(page.getByTestId("pass-rate-chart")).toBeVisible();
  await page.getByRole("link", { name: "Compare A with B" }).click();
  await expect(page).toHaveURL(new RegExp(`a=${firstRun}&b=${secondRun}`));
  const matrix = page.getByRole("table", { name: "Comparison matrix" });
  await expect(matrix.locator('[data-change="regressed"]')).toHaveCount(2);
  await expect(matrix.locator('[data-change="same"]')).toHaveCount(1);
  await expect(page.getByTestId("compare-counts")).toContainText("2 regressed");
  const parted = matrix.getByRole("link", {
    name: "Compare the conversations of broken blender side by side",
  });
  await expect(parted).toHaveAttribute("href", /^\/threads\/diff\?a=.+&b=.+/);
  await expectNoAxeViolations(page);
  await shootAtEachWidth(page, "evals-compare", "25c-evals-compare.png");

  await parted.click();
  await expect(page).toHaveURL(/\/threads\/diff\?/);
});

test("“Add to eval suite…” turns a thread's user turns into a case that opens for its assertions", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const projectId = await refundDeskProject(page);
  const suite = await page.request.post(`/api/projects/${projectId}/evals`, {
    data: {
      name: "from threads",
      agent_id: "support",
      cases: [{ name: "greeting", input: { messages: ["Hello"] }, assertions: [] }],
    },
  });
  expect(suite.status()).toBe(201);
  const started = await page.request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "support", message: "My kettle leaks." },
  });
  expect(started.status()).toBe(201);
  const threadId = ((await started.json()) as { threadId: string }).threadId;
  await waitIdle(page.request, threadId, 2);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${threadId}`);
  await page.getByRole("button", { name: "Add to eval suite…" }).click();
  const dialog = page.getByRole("dialog", { name: "Add to eval suite" });
  await expect(dialog.getByRole("radio", { name: /from threads/ })).toBeChecked();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Add case" }).click();

  const editor = page.getByRole("dialog", { name: /^Edit case/ });
  await expect(editor).toBeVisible();
  await expect(editor.getByRole("textbox", { name: "Turn 1" })).toHaveValue("My kettle leaks.");
  await editor.getByRole("button", { name: "Add assertion" }).click();
  await editor.getByLabel("Text").fill("order number");
  await editor.getByRole("button", { name: "Save case" }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole("table", { name: "Cases of the suite" })).toContainText(
    "the final reply contains “order number”",
  );
});

test("an unknown suite says so and links back to the suites", async ({ page }) => {
  const projectId = await refundDeskProject(page);
  await page.goto(`/projects/${projectId}/evals/00000000-0000-4000-8000-000000000000`);
  // Filtered by its text: Next's route announcer is an alert too.
  await expect(page.getByRole("alert").filter({ hasText: "Eval suite" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the suites" })).toHaveAttribute(
    "href",
    `/projects/${projectId}/evals`,
  );
  await expectNoAxeViolations(page);
});
