// The thread page's Effects tab: a turn schedules effects (a code tool calling state.scheduleEffect,
// from the test extensions), the tab lists them with status, due time and attempts, a failed one
// shows its error, Cancel cancels one that has not started; no axe violations; screenshots at three
// widths.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

const schedule = (name: string, args: Record<string, unknown>, delayMs = 0) => ({
  name: "schedule_effect",
  args: { name, args, delayMs },
});

async function startRun(request: APIRequestContext): Promise<string> {
  const definitions = {
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [
      {
        name: "chat",
        toolDescription: "Chats",
        prompt: "You are helpful.",
        model: "demo",
        includeChat: true,
        tools: ["schedule_effect"],
      },
    ],
    models: [
      {
        name: "demo",
        provider: "scripted",
        model: "scripted",
        script: [
          {
            toolCalls: [
              schedule("record_ping", { note: "now" }),
              schedule("record_ping", { note: "tomorrow's digest" }, 86_400_000),
              schedule("flaky", { failures: 1, key: "e2e" }),
              schedule("record_ping", { note: "" }),
            ],
          },
          { text: "Scheduled." },
        ],
      },
    ],
    tools: [{ name: "schedule_effect", description: "Schedules", kind: "code", module: "schedule_effect" }],
  };
  const project = await request.post("/api/projects", {
    data: { name: `Effects ${Date.now()}`, definitions },
  });
  expect(project.status()).toBe(201);
  const projectId = ((await project.json()) as { id: string }).id;
  const thread = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "assistant", message: "plan my week" },
  });
  expect(thread.status()).toBe(201);
  return ((await thread.json()) as { threadId: string }).threadId;
}

const tab = (page: Page, name: string) =>
  page.getByRole("tablist", { name: "Inspect thread" }).getByRole("tab", { name, exact: true });
const rows = (page: Page) => page.getByRole("table", { name: "Scheduled effects" }).getByTestId("effect-row");

test("lists a thread's scheduled effects and cancels one that has not started", async ({ page, request }) => {
  test.setTimeout(120_000);
  const threadId = await startRun(request);
  // Every effect due now has ended (the flaky one after its retry, 1 s later).
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/threads/${threadId}/effects`);
        const { effects } = (await response.json()) as { effects: { status: string }[] };
        return effects.map((effect) => effect.status).sort();
      },
      { timeout: 30_000 },
    )
    .toEqual(["done", "done", "failed", "scheduled"]);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${threadId}`);
  await tab(page, "Effects").click();
  await expect(rows(page)).toHaveCount(4);
  await expect(page.getByText("4 effects · 1 pending")).toBeVisible();
  const later = rows(page).filter({ hasText: "tomorrow's digest" });
  await expect(later).toContainText("scheduled");
  await expect(later).toContainText(/in 2[34]h \d\dm/);
  const flaky = rows(page).filter({ hasText: "flaky" });
  await expect(flaky).toContainText("done");
  // Attempts: it failed once, then succeeded on the retry.
  await expect(flaky.getByRole("cell").nth(3)).toHaveText("2");
  const invalid = rows(page).filter({ hasText: "Effect argument validation failed" });
  await expect(invalid).toContainText("failed");
  // Only the effect that has not started can be cancelled.
  await expect(page.getByRole("button", { name: /^Cancel effect/ })).toHaveCount(1);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/effects-${width}.png` });
  });

  await later.getByRole("button", { name: /^Cancel effect record_ping/ }).click();
  await expect(later).toContainText("cancelled");
  await expect(page.getByRole("button", { name: /^Cancel effect/ })).toHaveCount(0);
  await expect(page.getByText("4 effects", { exact: true })).toBeVisible();
  const response = await request.get(`/api/threads/${threadId}/effects?name=record_ping`);
  const { effects } = (await response.json()) as { effects: { args: { note: string }; status: string }[] };
  expect(effects.find((effect) => effect.args.note === "tomorrow's digest")?.status).toBe("cancelled");
});
