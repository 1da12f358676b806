// The studio: draw an orchestrator → dual_ai review loop with UI actions only, watch problems come
// and go, undo/redo, save, and check the definitions the server stored; refused connections; 409s.
import { expect, type Locator, type Page, test } from "@playwright/test";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1600, height: 1000 } });

async function createEmptyProject(page: Page, label: string): Promise<string> {
  const created = await page.request.post("/api/projects", { data: { name: `${label} ${Date.now()}` } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

function inspector(page: Page): Locator {
  return page.getByRole("complementary", { name: "Inspector" });
}

function node(page: Page, kind: string, name: string): Locator {
  return page.locator(`.react-flow__node-${kind}`).filter({ hasText: name });
}

async function addNamed(page: Page, button: string, name: string) {
  await page.getByRole("button", { name: button, exact: true }).click();
  await inspector(page).getByLabel("Name", { exact: true }).fill(name);
}

/** Drags from one handle to another with real pointer events, as a user draws an edge. */
async function dragHandle(page: Page, from: Locator, to: Locator, release = true) {
  await page.getByRole("button", { name: "Fit View" }).click();
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error("handle not visible");
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 });
  if (release) await page.mouse.up();
}

const sourceHandle = (owner: Locator, id?: string) =>
  owner.locator(id ? `.react-flow__handle.source[data-handleid="${id}"]` : ".react-flow__handle.source");
const targetHandle = (owner: Locator) => owner.locator(".react-flow__handle.target");

test("draws an orchestrator with a dual_ai review loop and saves the definitions it compiles to", async ({
  page,
}) => {
  const id = await createEmptyProject(page, "Studio");
  await page.goto(`/projects/${id}`);
  await page.getByRole("link", { name: "Open studio" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/studio$`));
  const problems = page.getByRole("region", { name: "Problems" });
  const status = page.getByRole("status", { name: "Studio status" });
  await expect(problems).toContainText("No problems");

  await addNamed(page, "Add model", "fast");
  await addNamed(page, "Add prompt", "orchestrate");
  // A new prompt's tool description starts empty (its box shows a hint, which is never exported).
  const description = inspector(page).getByLabel("Tool description", { exact: true });
  await expect(description).toHaveValue("");
  await expect(description).toHaveAttribute("placeholder", "Describe when to call this prompt.");
  await description.fill("Plans the work and delegates the draft.");

  // A prompt without a model is a problem, pinned to its node.
  const orchestrate = node(page, "prompt", "orchestrate");
  await expect(problems).toContainText("prompt orchestrate");
  await expect(orchestrate.getByTestId("studio-node")).not.toHaveAttribute("data-errors", "0");
  await page.getByRole("button", { name: "Add note" }).click();
  await problems.getByRole("button").filter({ hasText: "prompt orchestrate" }).first().click();
  await expect(inspector(page).getByLabel("Name", { exact: true })).toHaveValue("orchestrate");
  await page.screenshot({ path: `${ARTIFACTS}/studio-problem.png` });

  // Drawing prompt → model fixes it.
  await dragHandle(page, sourceHandle(orchestrate), targetHandle(node(page, "model", "fast")));
  await expect(status).toContainText("Connected orchestrate → fast");
  await expect(problems).not.toContainText("prompt orchestrate");
  await expect(orchestrate.getByTestId("studio-node")).toHaveAttribute("data-errors", "0");

  for (const name of ["worker", "reviewer"]) {
    await addNamed(page, "Add prompt", name);
    await inspector(page).getByLabel("Tool description", { exact: true }).fill(`The ${name}.`);
    await inspector(page).getByLabel("Model", { exact: true }).selectOption("fast");
  }

  await addNamed(page, "Add agent", "orchestrator");
  await dragHandle(
    page,
    sourceHandle(node(page, "agent", "orchestrator"), "sideA"),
    targetHandle(orchestrate),
  );
  await expect(node(page, "agent", "orchestrator")).toContainText("Side Aorchestrate");

  await addNamed(page, "Add agent", "review_loop");
  const panel = inspector(page);
  await panel.getByLabel("Type", { exact: true }).selectOption("dual_ai");
  await panel.getByLabel("Max session turns", { exact: true }).fill("10");
  await panel.getByLabel("Expose as tool", { exact: true }).selectOption("Yes");
  await panel.getByLabel("Tool description", { exact: true }).fill("Writes a draft and reviews it.");
  await panel.getByLabel("Side A prompt", { exact: true }).selectOption("worker");
  await panel.getByRole("button", { name: "Add side B" }).click();
  await panel.getByLabel("Side B prompt", { exact: true }).selectOption("reviewer");
  await panel.getByLabel("Side B sessionStop tool", { exact: true }).fill("approve");

  // prompt → dual_ai agent is a subagent edge, named with its mode (its label, tooltip and aria-label).
  await dragHandle(page, sourceHandle(orchestrate), targetHandle(node(page, "agent", "review_loop")));
  const subagentEdge = page.locator(".react-flow__edge.studio-edge-subagent");
  await expect(subagentEdge).toHaveAttribute("aria-label", "subagent · blocking edge");
  await expect(subagentEdge).toHaveCount(1);
  // The drawing compiles: nothing is wrong with it. Its model names OpenAI, whose key this test server
  // does not have: that is said (a warning), not an error.
  await expect(problems.getByRole("button").filter({ hasText: /^error/ })).toHaveCount(0);
  await expect(problems).toContainText(
    'Model "fast" uses OpenAI, but OPENAI_API_KEY is not set on this server',
  );

  // Select it from the keyboard (this hand-drawn edge is a few pixels long, under the cards).
  await subagentEdge.focus();
  await page.keyboard.press("Enter");
  await inspector(page).getByLabel("Blocking (the caller waits for the result)").selectOption("No");
  await expect(subagentEdge).toHaveAttribute("aria-label", "subagent · non-blocking edge");

  // Undo with the keyboard, redo with the toolbar.
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+z");
  await expect(subagentEdge).toHaveAttribute("aria-label", "subagent · blocking edge");
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(subagentEdge).toHaveAttribute("aria-label", "subagent · non-blocking edge");

  await expect(page.getByRole("textbox", { name: "TypeScript code" })).toContainText("defineAgent");
  await page.screenshot({ path: `${ARTIFACTS}/studio-review-loop.png` });

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(status).toHaveText("Saved v2");

  const saved = await page.request.get(`/api/projects/${id}`);
  const project = (await saved.json()) as {
    version: number;
    diagnostics: unknown[];
    definitions: {
      agents: { name: string; type?: string; sideA: { prompt: string }; sideB?: { prompt: string } }[];
      prompts: { name: string; model: string; tools?: unknown[] }[];
      models: { name: string }[];
    };
  };
  expect(project.version).toBe(2);
  expect(project.diagnostics).toEqual([]);
  const { agents, prompts, models } = project.definitions;
  expect(models.map((model) => model.name)).toEqual(["fast"]);
  expect(prompts.map((prompt) => prompt.name).sort()).toEqual(["orchestrate", "reviewer", "worker"]);
  expect(prompts.every((prompt) => prompt.model === "fast")).toBe(true);
  expect(prompts.find((prompt) => prompt.name === "orchestrate")?.tools).toEqual([
    { name: "review_loop", blocking: false },
  ]);
  expect(agents.map((agent) => agent.name).sort()).toEqual(["orchestrator", "review_loop"]);
  expect(agents.find((agent) => agent.name === "review_loop")).toMatchObject({
    type: "dual_ai",
    maxSessionTurns: 10,
    exposeAsTool: true,
    sideA: { prompt: "worker" },
    sideB: { prompt: "reviewer", sessionStop: "approve" },
  });
  expect(agents.find((agent) => agent.name === "orchestrator")?.sideA).toEqual({ prompt: "orchestrate" });
});

test("refuses to connect a tool to an agent and says why while drawing", async ({ page }) => {
  const id = await createEmptyProject(page, "Refused");
  await page.goto(`/projects/${id}/studio`);
  await addNamed(page, "Add tool", "read_file");
  await addNamed(page, "Add agent", "helper");
  await dragHandle(
    page,
    sourceHandle(node(page, "tool", "read_file")),
    targetHandle(node(page, "agent", "helper")),
    false,
  );
  const status = page.getByRole("status", { name: "Studio status" });
  await expect(status).toContainText("A tool calls nothing");
  await page.screenshot({ path: `${ARTIFACTS}/studio-refused-connection.png` });
  await page.mouse.up();
  await expect(page.locator(".react-flow__edge")).toHaveCount(0);
  await expect(status).toContainText("A tool calls nothing");
});

test("keeps the local document when someone else saved a newer version", async ({ page }) => {
  const id = await createEmptyProject(page, "Conflict");
  await page.goto(`/projects/${id}/studio`);
  await addNamed(page, "Add model", "mine");
  const other = await page.request.put(`/api/projects/${id}/graph`, {
    data: { graph: { version: 1, nodes: [] }, base_version: 1 },
  });
  expect(other.status()).toBe(200);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  // The refused save opens the conflict dialog (merge or save anyway: e2e/studio-drafts.spec.ts).
  await expect(page.getByRole("dialog", { name: "Someone saved a newer version" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Studio status" })).toHaveText(
    "Not saved: v2 was saved meanwhile. Your changes are kept here and in this browser's draft.",
  );
  await page.keyboard.press("Escape");
  await expect(node(page, "model", "mine")).toBeVisible();
  const project = (await (await page.request.get(`/api/projects/${id}`)).json()) as { version: number };
  expect(project.version).toBe(2);
});

test("feedback on the status line fades; an error stays until something else is said", async ({ page }) => {
  const id = await createEmptyProject(page, "Status fades");
  await page.goto(`/projects/${id}/studio`);
  const status = page.getByRole("status", { name: "Studio status" });
  await addNamed(page, "Add model", "fast");
  await addNamed(page, "Add prompt", "orchestrate");
  await dragHandle(
    page,
    sourceHandle(node(page, "prompt", "orchestrate")),
    targetHandle(node(page, "model", "fast")),
  );
  await expect(status).toContainText("Connected orchestrate → fast");
  // Feedback on something done is not left to be read later as the state of things.
  await expect(status).toHaveText("", { timeout: 15_000 });

  // Why a connection was refused stays.
  await addNamed(page, "Add tool", "read_file");
  await addNamed(page, "Add agent", "helper");
  await dragHandle(
    page,
    sourceHandle(node(page, "tool", "read_file")),
    targetHandle(node(page, "agent", "helper")),
  );
  await expect(status).toContainText("A tool calls nothing");
  await page.waitForTimeout(11_000);
  await expect(status).toContainText("A tool calls nothing");
});
