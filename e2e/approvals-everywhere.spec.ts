// Approvals answered where the user is (issue 41): the project page's inbox, the studio's playground
// and the thread page share one card — approve with edited arguments, deny with a reason — and a
// thread parked on an approval reads "waiting for approval" wherever its status shows: the home
// page's project row (with a count linking to the approvals), the project's thread list and the
// canvas badge of its agent (never "idle"). Axe on each; screenshots at 1280, 1440 and 1920.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

/** One ai_human agent whose first reply writes a file through a tool that needs approval. */
const definitions = {
  agents: [{ name: "scribe", type: "ai_human", sideA: { prompt: "scribe_chat" } }],
  prompts: [
    {
      name: "scribe_chat",
      toolDescription: "Writes notes",
      prompt: "Write what you are asked to.",
      model: "scribe_model",
      includeChat: true,
      tools: [{ name: "write_file", requiresApproval: true }],
    },
  ],
  models: [
    {
      name: "scribe_model",
      provider: "scripted",
      model: "s",
      script: [
        { toolCalls: [{ name: "write_file", args: { path: "/notes.md", content: "{{input}}" } }] },
        { text: "Done writing." },
      ],
    },
  ],
  tools: [{ name: "write_file", kind: "builtin", builtin: "fs_write", description: "Write a file." }],
};

async function createProject(request: APIRequestContext, label: string): Promise<string> {
  const project = await request.post("/api/projects", {
    data: { name: `${label} ${Date.now()}`, definitions },
  });
  expect(project.status(), await project.text()).toBe(201);
  return ((await project.json()) as { id: string }).id;
}

async function startRun(request: APIRequestContext, projectId: string, message: string): Promise<string> {
  const thread = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "scribe", message },
  });
  expect(thread.status()).toBe(201);
  const threadId = ((await thread.json()) as { threadId: string }).threadId;
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/threads/${threadId}`)).json()) as { thread: { status: string } })
          .thread.status,
      { timeout: 20_000 },
    )
    .toBe("waiting_approval");
  return threadId;
}

async function expectNoAxeViolations(page: Page, selector?: string) {
  const builder = new AxeBuilder({ page });
  const results = await (selector ? builder.include(selector) : builder).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test("the home page counts a project's runs and approvals; its inbox approves with edited arguments and denies with a reason", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const projectId = await createProject(request, "Inbox");
  const notes = await startRun(request, projectId, "release notes");
  const kit = await startRun(request, projectId, "press kit");

  // Home: the project's runs, its latest run's status in words, and its approvals as a link.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: /^Inbox / }) });
  await expect(row.getByTestId("project-runs")).toHaveText("2 runs");
  await expect(row.getByTestId("project-last-run")).toContainText("waiting for approval");
  const pendingLink = row.getByRole("link", { name: /^2 waiting for approval/ });
  await expect(pendingLink).toBeVisible();
  await expect(page.getByText("waiting_approval")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/home-activity-${width}.png` });
  });

  // The link opens the project's threads filtered to those waiting, the inbox above them.
  await page.setViewportSize({ width: 1440, height: 900 });
  await pendingLink.click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}\\?status=waiting_approval$`));
  const inbox = page.getByTestId("approval-inbox");
  const cards = inbox.getByTestId("approval-card");
  await expect(cards).toHaveCount(2, { timeout: 20_000 });
  await expect(inbox.getByRole("heading", { name: "Waiting for approval (2)" })).toBeVisible();
  const threadRows = page.getByRole("list", { name: /threads$/ }).getByRole("listitem");
  await expect(threadRows).toHaveCount(2);
  for (const threadRow of await threadRows.all())
    await expect(threadRow.getByTestId("status-badge")).toHaveText("waiting for approval");
  await expect(page.getByText("waiting_approval")).toHaveCount(0);
  // Each card names its thread and links to it.
  await expect(
    cards.filter({ hasText: "release notes" }).getByRole("link", { name: "scribe" }),
  ).toHaveAttribute("href", `/threads/${notes}`);
  await expectNoAxeViolations(page, '[data-testid="approval-inbox"]');
  await atEachWidth(page, async (width) => {
    const box = (await inbox.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${ARTIFACTS}/approvals-inbox-cards-${width}.png` });
  });

  // Approve one with edited arguments, deny the other with a reason, right here.
  await page.setViewportSize({ width: 1440, height: 900 });
  const notesCard = cards.filter({ hasText: "release notes" });
  await notesCard
    .getByRole("textbox", { name: /Arguments/ })
    .fill(JSON.stringify({ path: "/notes.md", content: "release notes, reviewed" }, null, 2));
  await notesCard.getByRole("button", { name: "Approve" }).click();
  await expect(cards).toHaveCount(1);
  const kitCard = cards.filter({ hasText: "press kit" });
  await kitCard.getByRole("textbox", { name: /Reason/ }).fill("the press kit waits for legal");
  await kitCard.getByRole("button", { name: "Deny" }).click();
  await expect(inbox.getByTestId("approval-card")).toHaveCount(0);

  const decided = (
    (await (await request.get(`/api/approvals?project_id=${projectId}`)).json()) as {
      approvals: { thread_id: string; state: string; reason: string | null }[];
    }
  ).approvals;
  expect(decided.find((approval) => approval.thread_id === notes)?.state).toBe("approved");
  expect(decided.find((approval) => approval.thread_id === kit)).toMatchObject({
    state: "denied",
    reason: "the press kit waits for legal",
  });
  await expect
    .poll(async () => (await request.get(`/api/threads/${notes}/fs/notes.md`)).status(), { timeout: 20_000 })
    .toBe(200);
  expect(await (await request.get(`/api/threads/${notes}/fs/notes.md`)).text()).toBe(
    "release notes, reviewed",
  );
});

test("the playground approves a tool call, and the agent's canvas badge says it waits for approval, not idle", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const projectId = await createProject(request, "Playground approval");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/projects/${projectId}/studio`);
  await expect(page.locator(".react-flow__node-agent")).toHaveCount(1, { timeout: 15_000 });
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const panel = page.getByRole("complementary", { name: "Playground" });
  await panel.getByLabel("First message").fill("meeting notes");
  await panel.getByRole("button", { name: "Start run", exact: true }).click();

  // The run parks on the call: the root's status and its agent's badge say so (never "idle").
  await expect(panel.getByTestId("status-badge").first()).toHaveText("waiting for approval", {
    timeout: 20_000,
  });
  const badge = page.locator('[data-testid="run-overlay"][data-agent="scribe"]');
  await expect(badge).toContainText("1 waiting for approval");
  await expect(badge).not.toContainText("idle");
  await expect(badge).toHaveAttribute("data-waiting", "1");
  // The playground answers it: the card with the call's arguments, Approve and Deny.
  const card = panel.getByTestId("approval-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("write_file");
  await expect(card.getByRole("textbox", { name: /Arguments/ })).toHaveValue(/meeting notes/);
  await expectNoAxeViolations(page, "#studio-playground");
  await atEachWidth(page, async (width) => {
    const box = (await card.boundingBox())!;
    const aside = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(aside.x);
    expect(box.x + box.width).toBeLessThanOrEqual(aside.x + aside.width + 1);
    await expect(card.getByRole("button", { name: "Approve" })).toBeInViewport();
    await page.screenshot({ path: `${ARTIFACTS}/playground-approval-${width}.png` });
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(panel.getByTestId("approval-card")).toHaveCount(0);
  await expect(panel.getByText("Done writing.")).toBeVisible({ timeout: 20_000 });
  await expect(badge).toHaveAttribute("data-waiting", "0");
  await expect(badge).not.toContainText("waiting for approval");
});
