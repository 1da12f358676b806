// The project's threads list (filters, search, the URL keeping them across a reload) and runs on the
// studio canvas (active agents and prompts highlighted, live thread counts) while a scripted run with
// delays is under way.
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { observableAssetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

/** The asset example plus two quick ai_human agents and one that takes 30 s to answer. */
function filterBundle() {
  const bundle = observableAssetBundle(0) as {
    agents: unknown[];
    prompts: unknown[];
    models: unknown[];
  };
  for (const [name, model] of [
    ["assistant", "quick"],
    ["helper", "quick"],
    ["slowpoke", "slow"],
  ] as const) {
    bundle.agents.push({ name, type: "ai_human", sideA: { prompt: `${name}_chat` } });
    bundle.prompts.push({
      name: `${name}_chat`,
      toolDescription: "Chats",
      prompt: "Hi.",
      model,
      includeChat: true,
    });
  }
  bundle.models.push(
    { name: "quick", provider: "scripted", model: "s", script: [{ text: "ok" }] },
    { name: "slow", provider: "scripted", model: "s", script: [{ text: "finally", delayMs: 30_000 }] },
  );
  return bundle;
}

async function createProject(
  request: APIRequestContext,
  label: string,
  definitions: unknown,
): Promise<string> {
  const created = await request.post("/api/projects", {
    data: { name: `${label} ${Date.now()}`, definitions },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function startThread(request: APIRequestContext, projectId: string, agent: string, message: string) {
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: agent, message },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { threadId: string }).threadId;
}

async function waitForStatus(request: APIRequestContext, threadId: string, status: string) {
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/threads/${threadId}`)).json()) as { thread: { status: string } })
          .thread.status,
    )
    .toBe(status);
}

const rows = (page: Page, name = "Root threads"): Locator =>
  page.getByRole("list", { name }).getByRole("listitem");
const filters = (page: Page) => page.getByRole("search", { name: "Filter threads" });
const statusChip = (page: Page, status: string) =>
  filters(page).getByRole("group", { name: "Status" }).getByRole("checkbox", { name: status, exact: true });

test("filters the threads list by status, agent, roots only and search, and a reload keeps the filters", async ({
  page,
  request,
}) => {
  const projectId = await createProject(request, "Filters", filterBundle());
  const rock = await startThread(request, projectId, "assistant", "Find the blue rock");
  const sky = await startThread(request, projectId, "helper", "Paint the sky");
  const slow = await startThread(request, projectId, "slowpoke", "Take your time");
  const orchestrator = await startThread(request, projectId, "orchestrator", "a crate");
  await waitForStatus(request, rock, "idle");
  await waitForStatus(request, sky, "idle");
  await waitForStatus(request, slow, "running");
  await waitForStatus(request, orchestrator, "idle");

  await page.goto(`/projects/${projectId}`);
  await expect(rows(page)).toHaveCount(4);
  // Each row's main text — agent, first message, short id — is its one link to the thread.
  const rockLink = rows(page).filter({ hasText: "Find the blue rock" }).getByRole("link");
  await expect(rockLink).toHaveCount(1);
  await expect(rockLink).toHaveAccessibleName(
    new RegExp(`^assistant\\s*Find the blue rock\\s*${rock.slice(0, 8)}$`),
  );
  await expect(rockLink).toHaveAttribute("href", `/threads/${rock}`);
  expect((await rockLink.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  for (const row of await rows(page).all()) await expect(row.getByRole("link")).toHaveCount(1);

  await statusChip(page, "running").check();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("slowpoke");
  await expect(page).toHaveURL(/[?&]status=running(&|$)/);
  await statusChip(page, "running").uncheck();
  await expect(rows(page)).toHaveCount(4);

  await filters(page).getByLabel("Filter by agent").selectOption("helper");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Paint the sky");
  await expect(page).toHaveURL(/[?&]agent_id=helper(&|$)/);
  await filters(page).getByLabel("Filter by agent").selectOption("");

  // Search matches the first user message (case-insensitive) and lists it as the row's title.
  await filters(page).getByRole("searchbox", { name: "Search threads" }).fill("BLUE rock");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Find the blue rock");
  await expect(page).toHaveURL(/[?&]q=BLUE(\+|%20)rock(&|$)/);
  await statusChip(page, "idle").check();
  await expect(rows(page)).toHaveCount(1);
  await expect(page).toHaveURL(/status=idle/);

  await page.reload();
  await expect(filters(page).getByRole("searchbox", { name: "Search threads" })).toHaveValue("BLUE rock");
  await expect(statusChip(page, "idle")).toBeChecked();
  await expect(statusChip(page, "running")).not.toBeChecked();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Find the blue rock");
  await page.screenshot({ path: `${ARTIFACTS}/threads-filtered.png`, fullPage: true });

  await filters(page).getByRole("searchbox", { name: "Search threads" }).fill("no such thread");
  await expect(page.getByText("No threads match these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(rows(page)).toHaveCount(4);
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}$`));

  // Roots only off lists the orchestrator's subagent too; with the agent filter, only it.
  await filters(page).getByRole("checkbox", { name: "Roots only" }).uncheck();
  await expect(rows(page, "All threads")).toHaveCount(5);
  await filters(page).getByLabel("Filter by agent").selectOption("asset_subagent");
  await expect(rows(page, "All threads")).toHaveCount(1);
  await expect(rows(page, "All threads").first()).toContainText("depth 1");
  await page.reload();
  await expect(filters(page).getByRole("checkbox", { name: "Roots only" })).not.toBeChecked();
  await expect(rows(page, "All threads")).toHaveCount(1);
  await filters(page).getByRole("checkbox", { name: "Roots only" }).check();
  await expect(page.getByText("No threads match these filters.")).toBeVisible();

  // The row's link opens the thread from the keyboard.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await rows(page).filter({ hasText: "Paint the sky" }).getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/threads/${sky}$`));
});

const card = (page: Page, kind: string, name: string): Locator =>
  page.locator(`.react-flow__node-${kind}`).filter({ hasText: name }).getByTestId("studio-node");

test("highlights the running agent and its active prompt on the canvas and counts its threads", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // Each side's reply takes 7 s: long enough for the activity poll (every 1.5 s) to see each side at
  // work even when a busy machine is slow to claim the thread and to answer the poll.
  const projectId = await createProject(request, "Canvas run", observableAssetBundle(7000));
  await page.goto(`/projects/${projectId}/studio`);
  await expect(card(page, "agent", "asset_subagent")).toHaveAttribute("data-active", "false");
  await expect(page.locator('[data-active="true"]')).toHaveCount(0);

  await startThread(request, projectId, "orchestrator", "a rock");

  // The worker side runs first: the subagent and the worker prompt light up, the reviewer does not.
  const subagent = card(page, "agent", "asset_subagent");
  await expect(subagent).toHaveAttribute("data-active", "true", { timeout: 15_000 });
  await expect(subagent.getByTestId("node-activity")).toContainText("1 running");
  await expect(card(page, "prompt", "asset_worker")).toHaveAttribute("data-active", "true");
  await expect(card(page, "prompt", "asset_reviewer")).toHaveAttribute("data-active", "false");
  await page.screenshot({ path: `${ARTIFACTS}/studio-run-worker.png` });

  // Then the reviewer side.
  await expect(card(page, "prompt", "asset_reviewer")).toHaveAttribute("data-active", "true", {
    timeout: 15_000,
  });
  await expect(card(page, "prompt", "asset_worker")).toHaveAttribute("data-active", "false");
  await expect(subagent).toHaveAttribute("data-active", "true");

  // When the run is over nothing is highlighted.
  await expect
    .poll(
      async () => {
        const answer = await request.get(
          `/api/threads?project_id=${projectId}&agent_id=asset_subagent&status=completed`,
        );
        return ((await answer.json()) as { total: number }).total;
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await expect(page.locator('[data-active="true"]')).toHaveCount(0, { timeout: 15_000 });
  await expect(subagent.getByTestId("node-activity")).toHaveCount(0);
});
