// The project dashboard (`/projects/:id/analytics`, docs/observability.md "Dashboard"): a project with
// two runs on a scripted model shows its totals, charts with the numbers of the hovered bucket, and
// tables by agent, model and tool, at 1280, 1440 and 1920 wide with no axe violations (WCAG 2 AA);
// the range picker and the hour/day switch ask again; a failed request shows the error with a retry,
// a slow one the loading state; a project with no runs the empty state. Reached from the project page.
// The eval pass rate by version: empty, then two runs of a suite on two versions, each linked.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";
// The gallery copies go beside the other artifacts (a test run never changes docs/; a copy by hand
// updates docs/screenshots).
const GALLERY = "e2e-artifacts/gallery";

const definitions = {
  agents: [{ name: "helper", sideA: { prompt: "helper_chat" } }],
  prompts: [
    {
      name: "helper_chat",
      toolDescription: "Helps",
      prompt: "Be brief.",
      model: "demo",
      includeChat: true,
      tools: ["write_file"],
    },
  ],
  models: [
    {
      name: "demo",
      provider: "scripted",
      model: "scripted",
      inputPrice: 3,
      outputPrice: 15,
      script: [
        { toolCalls: [{ name: "write_file", args: { path: "/n.md", content: "{{input}}" } }] },
        { text: "Noted: {{input}}" },
      ],
    },
  ],
  tools: [{ name: "write_file", kind: "builtin", builtin: "fs_write", description: "Write a file." }],
};

async function project(request: APIRequestContext, name: string, runs: string[]): Promise<string> {
  const created = await request.post("/api/projects", { data: { name, definitions } });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  // The runs go together (the spec's time is mostly theirs).
  await Promise.all(
    runs.map(async (message) => {
      const thread = await request.post("/api/threads", {
        data: { project_id: projectId, agent_id: "helper", message },
      });
      expect(thread.status()).toBe(201);
      await waitIdle(request, ((await thread.json()) as { threadId: string }).threadId, 4);
    }),
  );
  return projectId;
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test("shows a project's runs, calls, tokens and latency with numbers on hover, at three widths", async ({
  page,
  request,
}) => {
  const projectId = await project(request, `Analytics ${Date.now()}`, ["alpha", "beta"]);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("link", { name: "Analytics" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/analytics$`));
  await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
  const loaded = page.getByTestId("analytics-loaded");
  await expect(loaded).toBeVisible();

  // Totals: two runs, four model calls (a tool call and an answer each), no errors.
  const tile = (label: string) =>
    loaded.locator("div", { has: page.getByText(label, { exact: true }) }).first();
  await expect(tile("Runs")).toContainText("2");
  await expect(tile("Model calls")).toContainText("4");
  await expect(tile("Model calls")).toContainText("0 errors");
  const byAgent = page.getByRole("region", { name: "By agent" });
  await expect(byAgent.getByRole("row", { name: /helper/ })).toContainText("4");
  await expect(
    page.getByRole("region", { name: "By model" }).getByRole("row", { name: /demo/ }),
  ).toBeVisible();
  await expect(
    page.getByRole("region", { name: "By tool" }).getByRole("row", { name: /write_file/ }),
  ).toContainText("2");
  await expect(page.getByRole("region", { name: "How runs ended" })).toContainText("idle");

  // Hover over the bucket of now (the chart's right end): its numbers show above the plot.
  const chart = page.getByTestId("analytics-chart").first();
  const plot = chart.locator(".u-over");
  await expect(plot).toBeVisible();
  const box = await plot.boundingBox();
  if (!box) throw new Error("the chart has no box");
  // The calls are in the newest buckets, at the right end: walk left from it until the readout shows them.
  const readout = chart.getByTestId("chart-readout");
  let shown = "";
  for (let offset = 1; offset < 40 && !shown.includes("Model calls 4"); offset += 1) {
    await page.mouse.move(box.x + box.width - offset, box.y + box.height / 2);
    shown = (await readout.textContent()) ?? "";
  }
  await expect(readout).toContainText("Model calls 4");
  await expect(readout).toContainText("Runs 2");

  await atEachWidth(page, async (width) => {
    await expect(loaded).toBeVisible();
    // Nothing wider than the window.
    // (the charts redraw to their new width on the next frames).
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
      .toBe(true);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${ARTIFACTS}/analytics-${width}.png`, fullPage: true });
  });

  // By day over 30 days: one bucket holds all four calls.
  await page.getByRole("button", { name: "30 d" }).click();
  await expect(page.getByRole("radio", { name: "Per day" })).toBeChecked();
  await expect(page.getByText("Tokens and cost per day")).toBeVisible();
  await expect(tile("Model calls")).toContainText("4");

  // Eval pass rate over versions: none finished yet (the empty state links to the evals page) …
  const evals = page.getByRole("region", { name: "Eval pass rate by version" });
  await expect(evals.getByTestId("analytics-evals-empty")).toContainText(
    "No eval run finished in this range",
  );
  await expect(evals.getByRole("link", { name: "evals page" })).toHaveAttribute(
    "href",
    `/projects/${projectId}/evals`,
  );
  // … then a suite run on version 1 (passes: the reply says "Noted"), and on version 2 (fails).
  const suite = await request.post(`/api/projects/${projectId}/evals`, {
    data: {
      name: "notes",
      agent_id: "helper",
      assertions: [{ type: "contains", value: "Noted" }],
      cases: [{ name: "note", input: { messages: ["gamma"] } }],
    },
  });
  expect(suite.status()).toBe(201);
  const suiteId = ((await suite.json()) as { suite: { id: string } }).suite.id;
  const runSuite = async () => {
    const started = await request.post(`/api/projects/${projectId}/evals/${suiteId}/runs`, { data: {} });
    expect(started.status()).toBe(201);
    const runId = ((await started.json()) as { run: { id: string } }).run.id;
    await expect
      .poll(
        async () =>
          ((await (await request.get(`/api/eval-runs/${runId}`)).json()) as { run: { status: string } }).run
            .status,
        { timeout: 30_000 },
      )
      .toBe("done");
    return runId;
  };
  const passing = await runSuite();
  const changed = structuredClone(definitions);
  changed.models[0]!.script[1] = { text: "Saved: {{input}}" };
  expect((await request.put(`/api/projects/${projectId}/definitions`, { data: changed })).status()).toBe(200);
  const failing = await runSuite();
  await page.getByRole("button", { name: "7 d" }).click();
  await expect(evals.getByRole("link", { name: "notes" })).toHaveAttribute(
    "href",
    `/projects/${projectId}/evals/${suiteId}`,
  );
  await expect(evals.getByTestId("pass-rate-chart").getByRole("img")).toHaveAttribute(
    "aria-label",
    "Pass rate by version: version 1 100%, version 2 0%",
  );
  const runRow = (runId: string) =>
    evals.getByRole("row").filter({ has: page.locator(`a[href$="?run=${runId}"]`) });
  await expect(runRow(passing)).toContainText("v1");
  await expect(runRow(passing)).toContainText("1 / 1");
  await expect(runRow(passing)).toContainText("100%");
  await expect(runRow(failing)).toContainText("v2");
  await expect(runRow(failing)).toContainText("0%");
  await atEachWidth(page, async (width) => {
    await expect(evals).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
      .toBe(true);
    // At every width here the suite's run table sits beside its chart, not under it (a wide card
    // with the chart alone on its left half left the right half empty).
    const chartBox = await evals.getByTestId("pass-rate-chart").boundingBox();
    const tableBox = await evals.getByRole("table").boundingBox();
    expect(tableBox && chartBox && tableBox.x >= chartBox.x + chartBox.width).toBe(true);
    expect(tableBox && chartBox && tableBox.y < chartBox.y + chartBox.height).toBe(true);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${ARTIFACTS}/analytics-evals-${width}.png`, fullPage: true });
    if (width === 1440) {
      await evals.scrollIntoViewIfNeeded();
      await page.mouse.move(0, 900);
      await page.screenshot({
        path: `${GALLERY}/24c-analytics-evals.png`,
        animations: "disabled",
        caret: "hide",
      });
    }
  });
  // The run's link opens that run on its suite's page.
  await runRow(failing).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/evals/${suiteId}\\?run=${failing}$`));
});

test("shows the loading, error and empty states", async ({ page, request }) => {
  const projectId = await project(request, `Analytics empty ${Date.now()}`, []);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A slow answer: the loading state; a failed one: the error and a retry that loads.
  let fail = true;
  await page.route(`**/api/projects/${projectId}/analytics?*`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    if (fail)
      await route.fulfill({ status: 500, json: { error: "The database is unavailable.", code: "x" } });
    else await route.continue();
  });
  await page.goto(`/projects/${projectId}/analytics`);
  await expect(page.getByTestId("analytics-loading")).toBeVisible();
  // (Next's route announcer is an alert too.)
  const alert = page.getByRole("alert").filter({ hasText: "could not be loaded" });
  await expect(alert).toContainText("The figures could not be loaded.");
  await expect(alert).toContainText("The database is unavailable.");
  await expectNoAxeViolations(page);
  fail = false;
  await alert.getByRole("button", { name: "Try again" }).click();

  const empty = page.getByTestId("analytics-empty");
  await expect(empty).toContainText("Nothing ran in this range");
  await expect(empty.getByRole("link", { name: "studio" })).toHaveAttribute(
    "href",
    `/projects/${projectId}/studio`,
  );
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${ARTIFACTS}/analytics-empty-1280.png` });

  // Custom range: an end before the start is refused in words, not sent.
  await page.getByRole("button", { name: "Custom" }).click();
  await page.getByLabel("From").fill("2026-11-20");
  await page.getByLabel("To").fill("2026-11-10");
  await expect(page.getByRole("alert").filter({ hasText: "Choose a start date" })).toContainText(
    "Choose a start date on or before the end date.",
  );
});
