// Approvals from the root's live view: two children of a root each call a tool that needs approval;
// the root's thread page lists both (tool, thread, editable arguments), the tree shows them waiting;
// approving one with edited arguments and denying the other with a reason resumes exactly those
// threads. No axe violations; screenshots at three widths.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";

const ARTIFACTS = "e2e-artifacts";

async function startRun(request: APIRequestContext): Promise<{ projectId: string; rootId: string }> {
  const definitions = {
    agents: [
      { name: "lead", type: "ai_human", sideA: { prompt: "lead_chat" } },
      {
        name: "writer",
        type: "dual_ai",
        exposeAsTool: true,
        toolDescription: "Writes a file.",
        maxSessionTurns: 3,
        sideA: { prompt: "writer_work", stopOnResponse: true },
        sideB: { prompt: "writer_check", stopOnResponse: false, sessionStop: "done" },
      },
    ],
    prompts: [
      {
        name: "lead_chat",
        toolDescription: "Leads",
        prompt: "Delegate.",
        model: "lead_model",
        includeChat: true,
        tools: [{ name: "writer", blocking: false, initUserMessageProperty: "task" }],
      },
      {
        name: "writer_work",
        toolDescription: "Writes",
        prompt: "Write the file.",
        model: "writer_model",
        includeChat: true,
        tools: [{ name: "write_file", requiresApproval: true }],
      },
      { name: "writer_check", toolDescription: "Checks", prompt: "Check.", model: "check_model" },
    ],
    models: [
      {
        name: "lead_model",
        provider: "scripted",
        model: "s",
        script: [
          {
            toolCalls: [
              { name: "writer", args: { task: "release notes" } },
              { name: "writer", args: { task: "press kit" } },
            ],
          },
          { text: "Both writers started." },
          { text: "noted" },
          { text: "noted" },
        ],
      },
      {
        name: "writer_model",
        provider: "scripted",
        model: "s",
        script: [
          { toolCalls: [{ name: "write_file", args: { path: "/out.md", content: "{{input}}" } }] },
          { text: "Written." },
        ],
      },
      {
        name: "check_model",
        provider: "scripted",
        model: "s",
        script: [{ toolCalls: [{ name: "done", args: { message: "ok" } }] }],
      },
    ],
    tools: [{ name: "write_file", kind: "builtin", builtin: "fs_write", description: "Write a file." }],
  };
  const project = await request.post("/api/projects", {
    data: { name: `Approvals ${Date.now()}`, definitions },
  });
  expect(project.status(), await project.text()).toBe(201);
  const projectId = ((await project.json()) as { id: string }).id;
  const thread = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "lead", message: "ship it" },
  });
  expect(thread.status()).toBe(201);
  return { projectId, rootId: ((await thread.json()) as { threadId: string }).threadId };
}

const cards = (page: Page) => page.getByTestId("approval-card");

test("approves with edited arguments and denies with a reason from the root's live view", async ({
  page,
  request,
}) => {
  const { projectId, rootId } = await startRun(request);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The project's inbox lists both as the same cards as the thread page, each linking to its thread.
  await page.goto(`/projects/${projectId}`);
  const inbox = page.getByTestId("approval-inbox");
  await expect(inbox).toContainText("Waiting for approval (2)", { timeout: 20_000 });
  const inboxCards = inbox.getByTestId("approval-card");
  await expect(inboxCards).toHaveCount(2);
  // Two calls of one tool by one agent are told apart: the thread's short id, the arguments and the
  // time asked.
  const pending = (
    (await (await request.get(`/api/approvals?project_id=${projectId}&state=pending`)).json()) as {
      approvals: { thread_id: string; args: { content: string } }[];
    }
  ).approvals;
  expect(pending).toHaveLength(2);
  for (const approval of pending) {
    const card = inboxCards.filter({ hasText: `#${approval.thread_id.slice(0, 6)}` });
    await expect(card).toHaveCount(1);
    await expect(card.getByRole("textbox", { name: /Arguments/ })).toHaveValue(
      JSON.stringify(approval.args, null, 2),
    );
    await expect(card.locator("time")).toHaveText(/\d/);
    await expect(card.getByRole("link")).toHaveAttribute("href", `/threads/${approval.thread_id}`);
  }
  for (const button of await inbox.getByRole("button").all()) {
    const box = (await button.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(24);
    expect(box.height).toBeGreaterThanOrEqual(24);
  }
  const inboxAxe = await new AxeBuilder({ page })
    .include('[data-testid="approval-inbox"]')
    .options({ rules: { "target-size": { enabled: true } } })
    .analyze();
  expect(inboxAxe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  // The status reads in words wherever it shows: the filter's chip here, the badges and tree below.
  await expect(
    page
      .getByRole("group", { name: "Status" })
      .getByRole("checkbox", { name: "waiting for approval", exact: true }),
  ).toHaveCount(1);
  await expect(page.getByText("waiting_approval")).toHaveCount(0);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/approvals-inbox-${width}.png` });
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await inboxCards.first().getByRole("link").click();
  await page.waitForURL(/\/threads\//);
  await page.goto(`/threads/${rootId}`);
  const panel = page.getByRole("region", { name: /Waiting for approval/ });
  await expect(panel).toBeVisible({ timeout: 20_000 });
  await expect(cards(page)).toHaveCount(2);
  await expect(panel.getByRole("heading")).toHaveText("Waiting for approval (2)");
  await expect(cards(page).first()).toContainText("write_file");
  await expect(page.locator('[data-status="waiting_approval"]').first()).toBeVisible();
  await expect(
    page.getByRole("tree", { name: "Threads" }).getByRole("treeitem", { name: /waiting for approval/ }),
  ).toHaveCount(2);
  await expect(
    page.getByTestId("status-badge").filter({ hasText: "waiting for approval" }).first(),
  ).toBeVisible();
  await expect(page.getByText("waiting_approval")).toHaveCount(0);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/approvals-${width}.png` });
  });

  const notes = cards(page).filter({ hasText: "release notes" });
  const kit = cards(page).filter({ hasText: "press kit" });
  const args = notes.getByRole("textbox", { name: /Arguments/ });
  await args.fill(JSON.stringify({ path: "/out.md", content: "release notes, reviewed" }, null, 2));
  await notes.getByRole("button", { name: "Approve" }).click();
  await expect(cards(page)).toHaveCount(1);
  await kit.getByRole("textbox", { name: /Reason/ }).fill("the press kit waits for legal");
  await kit.getByRole("button", { name: "Deny" }).click();
  await expect(panel).toHaveCount(0);

  // Both children finish; the approved one wrote the edited content, the denied one nothing.
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/threads/${rootId}/approvals`);
        const { approvals } = (await response.json()) as {
          approvals: { state: string; thread_id: string; args: { content: string } }[];
        };
        return approvals.map((approval) => `${approval.args.content}:${approval.state}`).sort();
      },
      { timeout: 20_000 },
    )
    .toEqual(["press kit:denied", "release notes:approved"]);
  const approvals = (
    (await (await request.get(`/api/threads/${rootId}/approvals`)).json()) as {
      approvals: { state: string; thread_id: string }[];
    }
  ).approvals;
  const approvedChild = approvals.find((approval) => approval.state === "approved")!.thread_id;
  await expect
    .poll(async () => (await request.get(`/api/threads/${approvedChild}/fs/out.md`)).status(), {
      timeout: 20_000,
    })
    .toBe(200);
  expect(await (await request.get(`/api/threads/${approvedChild}/fs/out.md`)).text()).toBe(
    "release notes, reviewed",
  );
  await expect(page.locator('[data-status="waiting_approval"]')).toHaveCount(0);
});
