// The spec's asset example (orchestrator + asset_subagent worker/reviewer) built in an empty
// project with UI actions only — add nodes, fill the inspectors, draw edges with real pointer
// drags — then saved; the stored definitions must equal lib/standard/examples' assetExampleBundle.
// Screenshots of the inspector for every node kind and for the subagent edge go to e2e-artifacts.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { assetExampleBundle } from "../lib/standard/examples";

const ARTIFACTS = "e2e-artifacts";

test.use({ viewport: { width: 1600, height: 1000 } });

const inspector = (page: Page): Locator => page.getByRole("complementary", { name: "Inspector" });
const field = (page: Page, label: string): Locator => inspector(page).getByLabel(label, { exact: true });
const node = (page: Page, kind: string, name: string): Locator =>
  page.locator(`.react-flow__node-${kind}`).filter({ has: page.getByText(name, { exact: true }) });
const sourceHandle = (owner: Locator, id?: string) =>
  owner.locator(id ? `.react-flow__handle.source[data-handleid="${id}"]` : ".react-flow__handle.source");
const targetHandle = (owner: Locator) => owner.locator(".react-flow__handle.target");

async function add(page: Page, kind: "agent" | "prompt" | "tool" | "model", name: string) {
  await page.getByRole("button", { name: `Add ${kind}`, exact: true }).click();
  await field(page, "Name").fill(name);
}

/** Selects a node by clicking its title, so the inspector shows it. */
async function select(page: Page, kind: string, name: string) {
  await page.getByRole("button", { name: "Fit View" }).click();
  await node(page, kind, name).getByText(name, { exact: true }).click();
  await expect(field(page, "Name")).toHaveValue(name);
}

/** Drags from one handle to another with real pointer events, as a user draws an edge. */
async function draw(page: Page, from: Locator, to: Locator, expected: string) {
  await page.getByRole("button", { name: "Fit View" }).click();
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error("handle not visible");
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(page.getByRole("status", { name: "Studio status" })).toContainText(`Connected ${expected}`);
}

const example = assetExampleBundle;
const model = (name: string) => example.models.find((candidate) => candidate.name === name)!;
const prompt = (name: string) => example.prompts.find((candidate) => candidate.name === name)!;

test("builds the spec's asset example from an empty project with UI actions only", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto("/");
  const projectName = `Asset example ${Date.now()}`;
  await page.getByLabel("New project name").fill(projectName);
  await page.getByRole("button", { name: "Create project" }).click();
  // A new project opens in the studio.
  await expect(page).toHaveURL(/\/studio$/, { timeout: 20_000 });
  const id = /projects\/([^/]+)\/studio/.exec(page.url())?.[1] ?? "";
  await expect(page.locator(".react-flow__node")).toHaveCount(0);

  // Models: scripted, no key variable, the example's script typed as JSON.
  for (const name of ["orchestrator_model", "worker_model", "reviewer_model"]) {
    await add(page, "model", name);
    await field(page, "Provider").selectOption("scripted");
    await field(page, "Provider model id").fill("scripted");
    await field(page, "API key env variable").fill("");
    const script = field(page, "Script (JSON array, scripted provider)");
    if (name === "orchestrator_model") {
      // Validated as you type: half-written JSON is flagged on the field and not applied.
      await script.fill('[{ "text": ');
      await expect(script).toHaveAttribute("aria-invalid", "true");
      await expect(script).toHaveAccessibleDescription(/Not valid JSON yet/);
    }
    await script.fill(JSON.stringify(model(name).script));
    await expect(script).toHaveAttribute("aria-invalid", "false");
  }
  await inspector(page).screenshot({ path: `${ARTIFACTS}/inspector-model.png` });

  // Tools: built-in filesystem tools.
  for (const tool of example.tools) {
    await add(page, "tool", tool.name);
    await field(page, "Built-in tool").selectOption(tool.kind === "builtin" ? tool.builtin : "");
    await field(page, "Description").fill(tool.description);
  }
  await inspector(page).screenshot({ path: `${ARTIFACTS}/inspector-tool.png` });

  // Prompts, in the example's order; the style guide is plain text.
  for (const name of ["orchestrator_chat", "asset_worker", "asset_reviewer", "asset_style_guide"]) {
    const definition = prompt(name);
    await add(page, "prompt", name);
    await field(page, "Tool description").fill(definition.toolDescription);
    const content = definition.prompt;
    await field(page, "Prompt text").fill(
      typeof content === "string" ? content : content[0]?.type === "text" ? content[0].content : "",
    );
    await field(page, "Model").selectOption(definition.model);
    if (definition.includeChat) await field(page, "Include chat").selectOption("Yes");
  }

  // Worker and reviewer: text, the included style guide, more text.
  for (const name of ["asset_worker", "asset_reviewer"]) {
    const parts = prompt(name).prompt;
    if (typeof parts === "string") throw new Error("the example's worker and reviewer have parts");
    await select(page, "prompt", name);
    await inspector(page)
      .getByRole("button", { name: /Split into parts/ })
      .click();
    await inspector(page).getByRole("button", { name: "Add include part" }).click();
    await field(page, "Part 2: include prompt").selectOption("asset_style_guide");
    await inspector(page).getByRole("button", { name: "Add text part" }).click();
    await field(page, "Part 3: text").fill(parts[2]?.type === "text" ? parts[2].content : "");
  }
  await select(page, "prompt", "asset_worker");
  await field(page, "Required schema (JSON Schema of the call's arguments)").fill(
    JSON.stringify(prompt("asset_worker").requiredSchema),
  );

  // Agents: the orchestrator chat agent and the dual_ai asset subagent.
  await add(page, "agent", "orchestrator");
  await field(page, "Title").fill("Game art director");
  await field(page, "Description").fill(example.agents[0]?.description ?? "");
  await field(page, "Side A label").fill("Director");

  await add(page, "agent", "asset_subagent");
  await field(page, "Type").selectOption("dual_ai");
  const maxTurns = field(page, "Max session turns");
  await maxTurns.fill("0");
  await expect(maxTurns).toHaveAttribute("aria-invalid", "true");
  await expect(maxTurns).toHaveAccessibleDescription(/.+/);
  await maxTurns.fill("40");
  await expect(maxTurns).toHaveAttribute("aria-invalid", "false");
  await field(page, "Expose as tool").selectOption("Yes");
  await field(page, "Tool description").fill("Generate and QA top-down game assets.");
  await field(page, "Side A prompt").selectOption("asset_worker");
  await field(page, "Side A label").fill("Worker");
  await field(page, "Side A stops on response").selectOption("Yes");
  await field(page, "Side A sessionFail tool").fill("fail_asset");
  await field(page, "Side A sessionFail message property").fill("reason");
  await field(page, "Side A sessionFail attachments property").fill("attachments");
  await inspector(page).getByRole("button", { name: "Add side B" }).click();
  await field(page, "Side B prompt").selectOption("asset_reviewer");
  await field(page, "Side B label").fill("Reviewer");
  await field(page, "Side B stops on response").selectOption("No");
  await field(page, "Side B sessionStop tool").fill("approve_asset");
  await field(page, "Side B sessionStop message property").fill("summary");
  await field(page, "Side B sessionStop attachments property").fill("attachments");
  await field(page, "Side B sessionStatus tool").fill("update_asset_status");
  await field(page, "Side B sessionStatus message property").fill("status");
  await inspector(page).screenshot({ path: `${ARTIFACTS}/inspector-agent.png` });

  // Edges, drawn with the mouse on a laid-out canvas.
  await page.getByRole("button", { name: "Auto layout" }).click();
  const orchestratorChat = node(page, "prompt", "orchestrator_chat");
  await draw(
    page,
    sourceHandle(node(page, "agent", "orchestrator"), "sideA"),
    targetHandle(orchestratorChat),
    "orchestrator → orchestrator_chat",
  );
  for (const tool of ["write_file", "list_files"]) {
    await draw(
      page,
      sourceHandle(node(page, "prompt", "asset_worker")),
      targetHandle(node(page, "tool", tool)),
      `asset_worker → ${tool}`,
    );
  }
  for (const tool of ["read_file", "list_files"]) {
    await draw(
      page,
      sourceHandle(node(page, "prompt", "asset_reviewer")),
      targetHandle(node(page, "tool", tool)),
      `asset_reviewer → ${tool}`,
    );
  }
  await draw(
    page,
    sourceHandle(orchestratorChat),
    targetHandle(node(page, "agent", "asset_subagent")),
    "orchestrator_chat → asset_subagent",
  );

  // The reviewer's lifecycle tools have no node: they are added to its tools by name.
  await select(page, "prompt", "asset_reviewer");
  for (const tool of ["approve_asset", "update_asset_status"]) {
    await field(page, "Add tool by name").fill(tool);
    await inspector(page).getByRole("button", { name: "Add", exact: true }).click();
  }
  await inspector(page).screenshot({ path: `${ARTIFACTS}/inspector-prompt.png` });

  // The subagent edge's inspector: blocking spelled out, the init* properties.
  await expect(page.locator(".react-flow__edge.studio-edge-subagent")).toHaveAttribute(
    "aria-label",
    "subagent · blocking edge",
  );
  // Open the edge from the prompt's tools list, as a keyboard user would.
  await select(page, "prompt", "orchestrator_chat");
  await inspector(page).getByRole("button", { name: "Configure asset_subagent" }).click();
  await field(page, "Blocking (the caller waits for the result)").selectOption("Yes");
  await field(page, "initUserMessageProperty").fill("brief");
  await field(page, "initAttachmentsProperty").fill("references");
  await field(page, "initAgentNameProperty").fill("asset_name");
  await inspector(page).screenshot({ path: `${ARTIFACTS}/inspector-subagent-edge.png` });

  await page.getByRole("button", { name: "Add note" }).click();
  await inspector(page).getByLabel("Note text").fill("Built by hand from the spec's asset example.");
  await inspector(page).screenshot({ path: `${ARTIFACTS}/inspector-note.png` });

  await expect(page.getByRole("region", { name: "Problems" })).toContainText("No problems");
  await page.getByRole("button", { name: "Fit View" }).click();
  await page.screenshot({ path: `${ARTIFACTS}/studio-asset-example-by-hand.png` });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status", { name: "Studio status" })).toHaveText("Saved v2");

  const saved = (await (await page.request.get(`/api/projects/${id}`)).json()) as {
    definitions: unknown;
    diagnostics: unknown[];
  };
  expect(saved.diagnostics).toEqual([]);
  expect(saved.definitions).toEqual(assetExampleBundle);
});

test("edits an HTTP tool in the inspector: errors on the field as you type, headers read from env variables", async ({
  page,
}) => {
  const created = await page.request.post("/api/projects", { data: { name: `HTTP tool ${Date.now()}` } });
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/projects/${id}/studio`);
  await add(page, "tool", "weather");
  await field(page, "Kind").selectOption("http");
  await field(page, "Description").fill("Current weather for a city.");
  await field(page, "Method").selectOption("GET");

  // A placeholder the arguments do not declare is flagged on the URL until the schema declares it.
  const url = field(page, "URL");
  await url.fill("https://api.weather.test/v1/{city}");
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(url).toHaveAccessibleDescription(/city/);
  await field(page, "Arguments schema (JSON Schema)").fill(
    JSON.stringify({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
  );
  await expect(url).toHaveAttribute("aria-invalid", "false");

  // A literal credential is refused on the field; an ${ENV} reference is what the definition keeps.
  const headers = field(page, "Headers");
  await headers.fill("Authorization: Bearer abc123");
  await expect(headers).toHaveAttribute("aria-invalid", "true");
  await expect(headers).toHaveAccessibleDescription(/literal credential/);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${NAME} is the header syntax the user types.
  await headers.fill("Authorization: Bearer ${WEATHER_TOKEN}\nAccept: application/json");
  await expect(headers).toHaveAttribute("aria-invalid", "false");
  await field(page, "Timeout (ms)").fill("5000");
  await inspector(page).screenshot({ path: `${ARTIFACTS}/inspector-tool-http.png` });

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status", { name: "Studio status" })).toHaveText("Saved v2");
  const saved = (await (await page.request.get(`/api/projects/${id}`)).json()) as {
    definitions: { tools: unknown[] };
  };
  expect(saved.definitions.tools).toEqual([
    {
      name: "weather",
      kind: "http",
      description: "Current weather for a city.",
      method: "GET",
      url: "https://api.weather.test/v1/{city}",
      args: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      headers: { Authorization: { env: "WEATHER_TOKEN", prefix: "Bearer " }, Accept: "application/json" },
      timeoutMs: 5000,
    },
  ]);
});
