// The screenshot gallery: every screen of Tandem at 1440×900, written to docs/screenshots/ with a
// README that lists them. Run by `npm run screenshots` (scripts/screenshots/playwright.config.ts),
// never by `npm test`. Each shot waits for its screen to be ready, so a missing screen fails the run.
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import {
  assetTemplate,
  namedWorkersTemplate,
  REFUND_REPLY,
  refundDeskTemplate,
} from "../../lib/studio/templates";

const OUT = path.resolve(import.meta.dirname, "../../docs/screenshots");
interface Shot {
  file: string;
  title: string;
}
const shots: Shot[] = [];

/**
 * The live demo: the studio's asset template as a user gets it, with every scripted step slowed to
 * `delayMs` so the screenshots catch its subagent running (the template's own steps take 0.9 s).
 */
function liveDemoBundle(delayMs: number) {
  const bundle = assetTemplate();
  bundle.models = bundle.models.map((model) => ({
    ...model,
    script: model.script?.map((step) => ({ ...step, delayMs })),
  }));
  return bundle;
}

async function shoot(page: Page, file: string, title: string) {
  // Let hover tooltips, transitions and React Flow's fit settle; hide the pointer's hover state.
  await page.mouse.move(0, page.viewportSize()?.height ?? 0);
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(OUT, `${file}.png`), animations: "disabled", caret: "hide" });
  shots.push({ file: `${file}.png`, title });
}

async function createProject(request: APIRequestContext, name: string, definitions?: unknown) {
  const created = await request.post("/api/projects", {
    data: definitions ? { name, definitions } : { name },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** A chat assistant with a scripted model, for the fork and diff screens. */
const factsBundle = {
  agents: [{ name: "assistant", sideA: { prompt: "assistant_chat" } }],
  prompts: [
    {
      name: "assistant_chat",
      toolDescription: "Chats",
      prompt: "Tell a fact.",
      model: "demo",
      includeChat: true,
      tools: [],
    },
  ],
  models: [
    {
      name: "demo",
      provider: "scripted",
      model: "scripted",
      script: [{ text: "Here is a fact about {{input}}." }, { text: "And another one about {{input}}." }],
    },
  ],
};

/** A lead whose two non-blocking writers each ask before writing a file (the approvals screen). */
const approvalsBundle = {
  agents: [
    { name: "lead", sideA: { prompt: "lead_chat" } },
    {
      name: "writer",
      type: "dual_ai",
      exposeAsTool: true,
      toolDescription: "Writes a file.",
      maxSessionTurns: 3,
      sideA: { prompt: "writer_work", stopOnResponse: true },
      sideB: { prompt: "writer_check", sessionStop: "done" },
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

async function statusOf(request: APIRequestContext, threadId: string): Promise<string> {
  const body = (await (await request.get(`/api/threads/${threadId}`)).json()) as {
    thread: { status: string };
  };
  return body.thread.status;
}

const studio = (page: Page, id: string) => page.goto(`/projects/${id}/studio`);
const nodes = (page: Page) => page.locator(".react-flow__node");

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  fs.mkdirSync(OUT, { recursive: true });
  for (const file of fs.readdirSync(OUT)) if (file.endsWith(".png")) fs.rmSync(path.join(OUT, file));
});

test("the gallery", async ({ page, request }) => {
  // Home, empty (the server starts on a fresh database).
  await page.goto("/");
  await expect(page.getByLabel("New project name")).toBeVisible();
  await shoot(page, "01-home-empty", "Home with no projects yet");

  const studioId = await createProject(request, "Support desk");
  await createProject(
    request,
    "A research assistant with a rather long project name that must end in an ellipsis somewhere",
  );
  const liveId = await createProject(request, "Asset pipeline (live demo)", liveDemoBundle(4000));
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Support desk" })).toBeVisible();
  await shoot(page, "02-home-projects", "Home with projects (long names end in an ellipsis)");

  // The studio: templates menu, then each template on the canvas.
  await studio(page, studioId);
  await expect(page.getByRole("toolbar", { name: "Studio tools" })).toBeVisible();
  await page.getByRole("button", { name: "Templates" }).click();
  const templates = page.getByRole("menu", { name: "Templates" });
  await expect(templates).toBeVisible();
  await shoot(page, "03-studio-templates", "New project: the templates menu");
  const labels = await templates
    .getByRole("menuitem")
    .evaluateAll((items) => items.map((item) => item.querySelector("span")?.textContent ?? ""));
  await page.keyboard.press("Escape");
  for (const [index, label] of labels.entries()) {
    await page.getByRole("button", { name: "Templates" }).click();
    await page.getByRole("menu", { name: "Templates" }).getByRole("menuitem").nth(index).click();
    await expect(nodes(page).first()).toBeVisible();
    await page.getByRole("button", { name: "Fit View" }).click();
    const slug = label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    await shoot(page, `04-studio-template-${index + 1}-${slug}`, `Studio: the “${label}” template`);
  }
  // Zoomed far out (below 0.4): the cards are blocks of their kind's colour, without unreadable text.
  const zoomOut = page.getByRole("button", { name: "Zoom Out" });
  for (let click = 0; click < 12 && (await zoomOut.isEnabled()); click += 1) await zoomOut.click();
  await expect(page.locator(".react-flow.studio-canvas-far")).toHaveCount(1);
  await page.waitForTimeout(400);
  await shoot(page, "04-studio-zoomed-out", "Studio: zoomed far out, each card a block of its kind's colour");
  await page.getByRole("button", { name: "Fit View" }).click();
  await expect(page.locator(".react-flow.studio-canvas-far")).toHaveCount(0);

  // Inspector for the first agent, the code pane, then a problem on the canvas.
  await page.locator(".react-flow__node-agent").first().click();
  await expect(
    page.getByRole("complementary", { name: "Inspector" }).getByLabel("Name", { exact: true }),
  ).toBeVisible();
  await shoot(page, "05-studio-inspector", "Studio: the inspector of an agent");
  await expect(page.getByLabel("TypeScript code").first()).toBeVisible();
  // Maximised: the code of the selected agent, highlighted, with room to read it.
  await page.getByRole("button", { name: "Maximise", exact: true }).click();
  await shoot(
    page,
    "06-studio-code",
    "Studio: the code pane maximised (CodeMirror, in sync with the canvas)",
  );
  await page.getByRole("button", { name: "Restore", exact: true }).click();
  await page.getByRole("button", { name: "Add agent" }).click();
  await expect(page.getByRole("region", { name: "Problems" })).not.toContainText("No problems");
  await shoot(page, "07-studio-problems", "Studio: problems of an unfinished agent");
  await page.getByRole("button", { name: "Undo" }).click();

  // Dialogs and menus.
  await page.getByRole("button", { name: "Command palette" }).click();
  await expect(page.getByRole("dialog", { name: "Command palette" })).toBeVisible();
  await page.keyboard.type("agent");
  await shoot(page, "08-command-palette", "Command palette");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await shoot(page, "09-shortcuts", "Keyboard shortcuts");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: /^Models/ }).click();
  await expect(
    page.getByRole("dialog", { name: "Models" }).getByRole("button", { name: "Switch all models" }),
  ).toBeVisible();
  await shoot(page, "10-models", "Models and providers");
  await page.keyboard.press("Escape");

  // History: two saves, then the diff of the second with its changed fields.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status", { name: "Studio status" })).toContainText("Saved v2");
  await page.locator(".react-flow__node-model").first().click();
  const inspector = page.getByRole("complementary", { name: "Inspector" });
  await inspector.getByLabel("Name", { exact: true }).fill("support_model");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status", { name: "Studio status" })).toContainText("Saved v3");
  await page.getByRole("button", { name: "Version history" }).click();
  const history = page.getByRole("dialog", { name: "Version history" });
  await history
    .getByRole("listitem", { name: "Version 3" })
    .getByRole("button", { name: "Diff with previous" })
    .click();
  await expect(history.getByRole("region", { name: "Changes in version 3" })).toBeVisible();
  await shoot(page, "11-history-diff", "Version history with a field-level diff");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Export" }).click();
  await expect(page.getByRole("menu", { name: "Export" })).toBeVisible();
  await shoot(page, "12-export-menu", "Export menu");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const playground = page.getByRole("complementary", { name: "Playground" });
  await expect(playground).toBeVisible();
  await playground.getByLabel("First message").fill("Hello there");
  await shoot(page, "13-playground", "Playground: run an agent beside the canvas");
  await playground.getByRole("button", { name: "Close the playground" }).click();

  // A live tree: the project's threads page, then a thread with a subagent running and finished.
  const started = await request.post("/api/threads", {
    data: { project_id: liveId, agent_id: "orchestrator", message: "Write the style guide summary." },
  });
  expect(started.ok()).toBe(true);
  const { threadId } = (await started.json()) as { threadId: string };
  await page.goto(`/threads/${threadId}`);
  const tree = page.getByRole("tree", { name: "Threads" });
  // The scripted models wait 4 s per step, so the child is normally still running here.
  const child = tree.getByRole("treeitem", { name: /asset_subagent/ });
  await expect(child).toBeVisible({ timeout: 60_000 });
  await shoot(page, "14-thread-running", "Thread page: a subagent tree while it runs");
  await expect(child).toHaveAttribute("data-status", /^(completed|idle|stopped|failed)$/, {
    timeout: 120_000,
  });
  // The orchestrator then streams its answer; the run is over once it waits for the user again.
  await expect(tree.getByRole("treeitem").first()).toHaveAttribute("data-status", "idle", {
    timeout: 60_000,
  });
  await page.waitForTimeout(1000);
  await shoot(page, "15-thread-finished", "Thread page: the tree after the run");
  await page.goto(`/projects/${liveId}`);
  await expect(page.getByRole("region", { name: "Threads" })).toBeVisible();
  await shoot(page, "16-project-threads", "Project page: its threads, definitions and versions");

  // The same agent run from the studio's playground: the chat, the run's tree and the canvas overlay.
  await studio(page, liveId);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const runPanel = page.getByRole("complementary", { name: "Playground" });
  await runPanel.getByLabel("Agent").selectOption("orchestrator");
  await runPanel.getByLabel("First message").fill("Write the launch checklist.");
  await runPanel.getByRole("button", { name: /Start run$/ }).click();
  await expect(runPanel.getByRole("treeitem", { name: /asset_subagent/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-testid="run-overlay"][data-agent="asset_subagent"]')).toBeVisible();
  // The project's activity poll has counted the running child on its card too.
  await expect(
    nodes(page).filter({ hasText: "asset_subagent" }).first().getByTestId("node-activity"),
  ).toBeVisible({ timeout: 15_000 });
  await shoot(page, "17-playground-running", "Playground: a run's chat, tree and the canvas overlay");

  // MCP tools of the server's configured servers in the palette (test/extensions/mcp.json).
  const mcpId = await createProject(request, "MCP tools");
  await studio(page, mcpId);
  const palette = page.getByRole("complementary", { name: "Node palette" });
  const mcpTools = palette.getByRole("list", { name: "MCP tools" });
  await expect(mcpTools.getByRole("button")).toHaveCount(3, { timeout: 30_000 });
  await mcpTools.locator('[data-palette-entry="mcp:calc:add"]').click();
  await expect(nodes(page)).toHaveCount(1);
  await shoot(page, "18-studio-mcp-tools", "Studio: tools of a configured MCP server in the palette");

  // The named-workers template run to the end: the tree and the timeline (Gantt) of its threads.
  const teamId = await createProject(request, "Team lead (named workers)", namedWorkersTemplate());
  const teamRun = await request.post("/api/threads", {
    data: { project_id: teamId, agent_id: "team_lead", message: "A short piece on tide pools." },
  });
  expect(teamRun.ok()).toBe(true);
  const teamThread = ((await teamRun.json()) as { threadId: string }).threadId;
  await page.goto(`/threads/${teamThread}`);
  const teamTree = page.getByRole("tree", { name: "Threads" });
  await expect(teamTree.getByRole("treeitem")).toHaveCount(3, { timeout: 60_000 });
  await expect(teamTree.getByRole("treeitem").first()).toHaveAttribute("data-status", "idle", {
    timeout: 120_000,
  });
  await page.getByRole("tab", { name: "Timeline" }).click();
  await expect(page.getByRole("tabpanel", { name: "Timeline" })).toBeVisible();
  await shoot(
    page,
    "16b-thread-timeline",
    "Thread page: the timeline of a team lead and its two named workers",
  );

  // Fork a run at a message with an edited user message, then compare the two runs.
  const factsId = await createProject(request, "Facts (fork and diff)", factsBundle);
  const first = await request.post("/api/threads", {
    data: { project_id: factsId, agent_id: "assistant", message: "apples" },
  });
  const original = ((await first.json()) as { threadId: string }).threadId;
  await expect.poll(() => statusOf(request, original), { timeout: 30_000 }).toBe("idle");
  await request.post(`/api/threads/${original}/messages`, { data: { content: "bananas" } });
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/threads/${original}/messages`)).json()) as { messages: unknown[] })
          .messages.length,
      { timeout: 30_000 },
    )
    .toBe(4);
  const listed = (await (await request.get(`/api/threads/${original}/messages`)).json()) as {
    messages: { id: string; content: string }[];
  };
  const bananas = listed.messages.find((message) => message.content === "bananas");
  const forked = await request.post(`/api/threads/${original}/fork`, {
    data: { at_message_id: bananas?.id, content: "cherries", replace: true },
  });
  expect(forked.status()).toBe(201);
  const fork = ((await forked.json()) as { threadId: string }).threadId;
  await expect.poll(() => statusOf(request, fork), { timeout: 30_000 }).toBe("idle");
  await page.goto(`/threads/${fork}`);
  await expect(page.getByTestId("forked-from")).toBeVisible();
  await shoot(page, "19-thread-fork", "Thread page: a fork, with a link to compare it with the original");
  await page.goto(`/threads/diff?a=${original}&b=${fork}`);
  await expect(page.getByTestId("diff-summary")).toBeVisible({ timeout: 30_000 });
  await shoot(page, "20-runs-diff", "Two runs side by side, the first divergence highlighted");

  // The prompt is edited; the original run is replayed against it and diverges at its first call.
  const edited = {
    ...factsBundle,
    prompts: [{ ...factsBundle.prompts[0]!, prompt: "Tell a surprising fact." }],
  };
  expect((await request.put(`/api/projects/${factsId}/definitions`, { data: edited })).status()).toBe(200);
  const replayed = await request.post(`/api/threads/${original}/replay`, {
    data: { from_version: "latest" },
  });
  expect(replayed.status()).toBe(201);
  const replay = ((await replayed.json()) as { threadId: string }).threadId;
  await page.goto(`/threads/${replay}`);
  await expect(page.getByTestId("replay-banner")).toContainText("Finished", { timeout: 30_000 });
  await expect(page.getByTestId("replay-divergence")).toBeVisible();
  await shoot(
    page,
    "21-thread-replay",
    "Thread page: a replay against edited definitions, where it diverged",
  );

  // Approvals raised by two sibling children, on the root's live view.
  const approvalsId = await createProject(request, "Writers (approvals)", approvalsBundle);
  const lead = await request.post("/api/threads", {
    data: { project_id: approvalsId, agent_id: "lead", message: "ship it" },
  });
  const leadId = ((await lead.json()) as { threadId: string }).threadId;
  await page.goto(`/threads/${leadId}`);
  await expect(page.getByTestId("approval-card")).toHaveCount(2, { timeout: 30_000 });
  await shoot(page, "22-approvals", "Thread page: tool calls waiting for approval anywhere in the tree");
  await page.goto(`/projects/${approvalsId}`);
  await expect(page.getByTestId("approval-card")).toHaveCount(2, { timeout: 30_000 });
  await shoot(page, "22b-project-approvals", "Project page: the approval inbox, answered in place");
  await page.goto("/");
  await expect(page.getByTestId("project-pending-approvals").first()).toBeVisible({ timeout: 30_000 });
  await shoot(page, "22c-home-activity", "Home: each project's runs, last run and approvals waiting");

  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  await shoot(page, "23-login", "Sign in");

  // Evals (docs/evals.md): the refund desk template's suite added from the empty state, run, broken by
  // the documented edit of the support model's script, run again, and the two runs compared.
  const evalsId = await createProject(request, "Refund desk (evals)", refundDeskTemplate());
  await page.goto(`/projects/${evalsId}/evals`);
  await expect(page.getByTestId("evals-empty")).toBeVisible();
  await shoot(page, "25-evals-empty", "Evals: no suite yet, the template's suite offered");
  await page.getByRole("button", { name: "Add suite “refunds”" }).click();
  await expect(page.getByRole("heading", { name: "refunds", level: 1 })).toBeVisible();
  const runEvals = async () => {
    await page.getByRole("button", { name: "Run suite" }).click();
    await expect(page).toHaveURL(/\?run=/);
    await expect(page.getByTestId("run-progress")).toHaveText("Finished: 3 of 3 case runs", {
      timeout: 30_000,
    });
  };
  await runEvals();
  await shoot(page, "25b-evals-run", "Evals: a suite's run, every case passed, reasons in words");
  const brokenDesk = refundDeskTemplate();
  for (const model of brokenDesk.models) {
    model.script = model.script?.map((step) =>
      step.text === REFUND_REPLY
        ? { ...step, text: "Thank you. A colleague will look into your order and get back to you." }
        : step,
    );
  }
  expect((await request.put(`/api/projects/${evalsId}/definitions`, { data: brokenDesk })).status()).toBe(
    200,
  );
  await page.reload();
  await runEvals();
  await page.getByRole("link", { name: "Compare A with B" }).click();
  await expect(page.getByTestId("compare-counts")).toContainText("2 regressed");
  await shoot(page, "25c-evals-compare", "Evals: two runs compared, two cases regressed");
});

/**
 * Entries of the current README whose picture another spec writes (the e2e specs of accounts, roles and
 * traces shoot 26–28 into the gallery): kept, so regenerating the gallery does not drop them.
 */
function shotsWrittenElsewhere(): Shot[] {
  const readme = path.join(OUT, "README.md");
  if (!fs.existsSync(readme)) return [];
  const entry = /^- \*\*(.+)\*\* — \[`([^`]+)`\]\(([^)]+)\)$/;
  const ours = new Set(shots.map((shot) => shot.file));
  return fs
    .readFileSync(readme, "utf8")
    .split("\n")
    .flatMap((line) => {
      const [, title, file] = entry.exec(line) ?? [];
      if (!title || !file || ours.has(file) || !fs.existsSync(path.join(OUT, file))) return [];
      return [{ title, file }];
    });
}

test.afterAll(() => {
  const listed = [...shots, ...shotsWrittenElsewhere()].sort((a, b) => (a.file < b.file ? -1 : 1));
  const lines = [
    "# Screenshot gallery",
    "",
    "Every screen of Tandem at 1440×900 in Chromium, written by `npm run screenshots` (after",
    "`npm run build`; see `scripts/screenshots/`). Regenerate it when a screen changes.",
    "The last walk through every template and feature as a new user, at 1280, 1440 and 1920 wide,",
    "is in [`new-user-pass/`](new-user-pass/README.md).",
    "",
    ...listed.map((shot) => `- **${shot.title}** — [\`${shot.file}\`](${shot.file})`),
    "",
    ...listed.map((shot) => `### ${shot.title}\n\n![${shot.title}](${shot.file})\n`),
  ];
  fs.writeFileSync(path.join(OUT, "README.md"), `${lines.join("\n").trimEnd()}\n`);
});
