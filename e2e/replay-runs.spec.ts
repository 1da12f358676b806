// "Replay runs" on a project page, the regression check a new user tries first (issue 41): three
// runs replayed against an edited prompt — the count moves to its end from the server's state of the
// batch, and a reload shows the same finished results. A replay's divergence shows the change
// itself: a word diff in which the sentence appended to a long prompt is marked and in view. Axe on
// the panel and the banner; screenshots at 1280, 1440 and 1920.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

/** Longer than a divergence's old 300-character excerpt, so a change at its end was cut from both sides. */
const PROMPT = `You lead a small team of writers and critics. ${"Plan the work, hand each part to the right person, check what comes back and keep the user informed. ".repeat(5).trim()}`;

function definitions(prompt: string) {
  return {
    agents: [{ name: "lead", sideA: { prompt: "lead_chat" } }],
    prompts: [{ name: "lead_chat", toolDescription: "Leads", prompt, model: "demo", includeChat: true }],
    models: [
      {
        name: "demo",
        provider: "scripted",
        model: "scripted",
        // Slow enough that the replays are still at work when the panel first reads them.
        script: [{ text: "Plan for {{input}}: write, then check.", delayMs: 1500 }],
      },
    ],
    tools: [],
  };
}

async function projectWithRuns(request: APIRequestContext, runs: string[]): Promise<string> {
  const project = await request.post("/api/projects", {
    data: { name: `Replay runs ${Date.now()}`, definitions: definitions(PROMPT) },
  });
  expect(project.status()).toBe(201);
  const projectId = ((await project.json()) as { id: string }).id;
  for (const message of runs) {
    const created = await request.post("/api/threads", {
      data: { project_id: projectId, agent_id: "lead", message },
    });
    expect(created.status()).toBe(201);
    await waitIdle(request, ((await created.json()) as { threadId: string }).threadId, 2);
  }
  return projectId;
}

async function expectNoAxeViolations(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test("replays three runs to the end, keeps the results over a reload, and shows the appended sentence as the change", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const projectId = await projectWithRuns(request, ["the launch", "the blog post", "the newsletter"]);
  const edited = await request.put(`/api/projects/${projectId}/definitions`, {
    data: definitions(`${PROMPT} Always be brief.`),
  });
  expect(edited.status()).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/projects/${projectId}`);
  const panel = page.getByRole("region", { name: "Replay runs" });
  await expect(panel.getByRole("button", { name: "Replay", exact: true })).toBeEnabled({ timeout: 10_000 });
  await panel.getByLabel("Latest").fill("3");
  await panel.getByRole("button", { name: "Replay", exact: true }).click();
  const summary = panel.getByTestId("replay-runs-summary");
  // The count moves to its end (it never stays at "0 finished"), and Replay is offered again.
  await expect(summary).toHaveText("0 of 3 match their recording; 3 diverged", { timeout: 30_000 });
  await expect(panel.getByTestId("replay-run")).toHaveCount(3);
  await expect(panel.getByTestId("replay-run").first()).toContainText(
    "Diverged: lead, side A call 1 at messages[0].content",
  );
  await expect(panel.getByRole("button", { name: "Replay", exact: true })).toBeEnabled();

  // A reload shows the same batch, read from the server.
  await page.reload();
  await expect(summary).toHaveText("0 of 3 match their recording; 3 diverged", { timeout: 10_000 });
  await expect(panel.getByTestId("replay-run")).toHaveCount(3);
  const batch = (await (await request.get(`/api/projects/${projectId}/replays`)).json()) as {
    batch: { state: string; replays: { status: { state: string } }[] };
  };
  expect(batch.batch.state).toBe("finished");
  expect(batch.batch.replays.map((replay) => replay.status.state)).toEqual([
    "finished",
    "finished",
    "finished",
  ]);
  await expectNoAxeViolations(page, '[aria-label="Replay runs"]');
  await atEachWidth(page, async (width) => {
    await panel.scrollIntoViewIfNeeded();
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/replay-runs-batch-${width}.png` });
  });

  // The divergence of one replay shows what changed: the appended sentence, marked as added, in view.
  await page.setViewportSize({ width: 1440, height: 900 });
  await panel.getByRole("link", { name: "Open replay" }).first().click();
  await page.waitForURL(/\/threads\//);
  const diff = page.getByTestId("replay-divergence").getByTestId("divergence-diff");
  await expect(diff).toBeVisible({ timeout: 20_000 });
  const added = diff.locator("ins");
  await expect(added).toHaveCount(1);
  await expect(added).toContainText("Always be brief.");
  await expect(diff.locator("del")).toHaveCount(0);
  // Both sides were not cut at the same prefix: the text before the change is the prompt's end.
  await expect(diff).toContainText("keep the user informed.");
  await atEachWidth(page, async (width) => {
    // The box scrolls back to the change after the resize reflows its text (a frame later).
    await expect(async () => {
      const box = (await diff.boundingBox())!;
      const change = (await added.boundingBox())!;
      expect(change.y).toBeGreaterThanOrEqual(box.y - 1);
      expect(change.y + change.height).toBeLessThanOrEqual(box.y + box.height + 1);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }).toPass({ timeout: 5_000 });
    await page.screenshot({ path: `${ARTIFACTS}/replay-divergence-diff-${width}.png` });
  });
  await expectNoAxeViolations(page, '[aria-label="Replay"]');
});
