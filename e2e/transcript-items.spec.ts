// What a transcript and a run diff say (issue 41): an approval the thread asked for is an item after
// the call that asked, with its answer (waiting, approved with edited arguments, denied with the
// reason); a child's report reads as a handoff from that child, not as the raw "Subagent
// (reference: …) has returned the following result:" text; and the run diff names a dual_ai side by
// its label ("Worker", "Reviewer"), never "User". Screenshots at three widths; axe on each view.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";
import { assetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

async function project(request: APIRequestContext, definitions: unknown): Promise<string> {
  const created = await request.post("/api/projects", { data: { name: `Items ${Date.now()}`, definitions } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function start(request: APIRequestContext, projectId: string, agent: string, message: string) {
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: agent, message },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { threadId: string }).threadId;
}

async function pendingApproval(request: APIRequestContext, threadId: string): Promise<string> {
  let id = "";
  await expect
    .poll(
      async () => {
        const { approvals } = (await (
          await request.get(`/api/threads/${threadId}/approvals?state=pending`)
        ).json()) as {
          approvals: { id: string }[];
        };
        id = approvals[0]?.id ?? "";
        return id;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return id;
}

const transcript = (page: Page) => page.getByRole("region", { name: "Transcript" });

async function noAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test("approvals are transcript items: the request, then approved with edits or denied with a reason", async ({
  page,
  request,
}) => {
  const projectId = await project(request, {
    agents: [{ name: "clerk", type: "ai_human", sideA: { prompt: "clerk_chat" } }],
    prompts: [
      {
        name: "clerk_chat",
        toolDescription: "Files notes",
        prompt: "File the note.",
        model: "clerk_model",
        includeChat: true,
        tools: [{ name: "write_file", requiresApproval: true }],
      },
    ],
    models: [
      {
        name: "clerk_model",
        provider: "scripted",
        model: "s",
        script: [
          { toolCalls: [{ name: "write_file", args: { path: "/note.md", content: "{{input}}" } }] },
          { text: "Filed." },
          { toolCalls: [{ name: "write_file", args: { path: "/other.md", content: "{{input}}" } }] },
          { text: "Not filed, then." },
        ],
      },
    ],
    tools: [{ name: "write_file", kind: "builtin", builtin: "fs_write", description: "Write a file." }],
  });
  const threadId = await start(request, projectId, "clerk", "first note");
  const first = await pendingApproval(request, threadId);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${threadId}`);
  const items = transcript(page).getByTestId("approval-item");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute("data-state", "pending");
  await expect(items.first()).toContainText("write_file");
  await expect(items.first()).toContainText("Waiting for a decision");
  await page.screenshot({ path: `${ARTIFACTS}/transcript-approval-pending.png` });

  const approved = await request.post(`/api/approvals/${first}`, {
    data: { decision: "approve", args: { path: "/note.md", content: "first note, edited" } },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  await expect(items.first()).toContainText("Approved with edited arguments");
  await waitIdle(request, threadId, 4);

  await request.post(`/api/threads/${threadId}/messages`, { data: { content: "second note" } });
  const second = await pendingApproval(request, threadId);
  await expect(items).toHaveCount(2);
  const denied = await request.post(`/api/approvals/${second}`, {
    data: { decision: "deny", reason: "not this one" },
  });
  expect(denied.status(), await denied.text()).toBe(200);
  await expect(items.nth(1)).toHaveAttribute("data-state", "denied");
  await expect(items.nth(1)).toContainText("Denied: not this one");
  await expect(transcript(page)).toContainText("Not filed, then.");
  // Each item sits right after the call that asked for it.
  const order = await transcript(page)
    .locator('[data-testid="message"], [data-testid="approval-item"]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-testid") ?? ""));
  expect(order.indexOf("approval-item")).toBeGreaterThan(0);
  await noAxeViolations(page);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/transcript-approvals-${width}.png` });
  });
});

test("a child's report reads as a handoff from that child", async ({ page, request }) => {
  const projectId = await project(
    request,
    assetBundle({
      config: { blocking: true, initUserMessageProperty: "task" },
      orchestratorScript: [
        { toolCalls: [{ name: "asset_subagent", args: { task: "{{input}}" } }] },
        { text: "Here is what came back: {{tool_result}}" },
      ],
    }),
  );
  const threadId = await start(request, projectId, "orchestrator", "a red door");
  await waitIdle(request, threadId, 4);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${threadId}`);
  const reports = transcript(page).getByTestId("subagent-report");
  // The tool result and the reply that quotes it.
  await expect(reports).toHaveCount(2);
  await expect(reports.first()).toContainText("Handed back by asset_subagent");
  await expect(reports.first()).toContainText("Approved");
  await expect(transcript(page)).toContainText("Here is what came back:");
  await expect(transcript(page)).not.toContainText("has returned the following result");
  await noAxeViolations(page);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/transcript-handoff-${width}.png` });
  });
});

test("the run diff names a dual_ai side by its label", async ({ page, request }) => {
  const projectId = await project(
    request,
    assetBundle({ orchestratorScript: [{ text: "unused" }], workerScript: [{ text: "Draft: {{input}}" }] }),
  );
  const runs: string[] = [];
  for (const brief of ["a red door", "a blue door"]) {
    const threadId = await start(request, projectId, "asset_subagent", brief);
    await expect
      .poll(
        async () =>
          ((await (await request.get(`/api/threads/${threadId}`)).json()) as { thread: { status: string } })
            .thread.status,
        {
          timeout: 20_000,
        },
      )
      .toBe("completed");
    runs.push(threadId);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/diff?a=${runs[0]}&b=${runs[1]}`);
  const steps = page.getByRole("list", { name: "Aligned steps" });
  await expect(steps).toBeVisible();
  await expect(steps).toContainText("Worker");
  await expect(steps).toContainText("Reviewer");
  await expect(steps).not.toContainText("side a");
  await expect(steps).not.toContainText("side b");
  await noAxeViolations(page);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/diff-side-labels-${width}.png` });
  });
});
