// The home page: create, rename and delete projects through the UI (the focus follows the row's
// controls, a rename's error stays beside its field); they survive a restart. A project page without
// an ai_human agent says how to get one and offers Run and Replay disabled, with the reason.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { createIsolatedDatabaseConfig } from "../test/support/database";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";
import { startTestServer } from "../test/support/server";

const ARTIFACTS = "e2e-artifacts";

/** Creates a project on the home page: it opens in the studio; back on the home page, it is listed. */
async function createProjectThroughUi(page: Page, name: string) {
  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  // The studio is the heaviest page: on a loaded machine (or a cold server) it takes a while.
  await expect(page).toHaveURL(/\/projects\/[^/]+\/studio$/, { timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Templates" })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
}

test("creates, renames and deletes a project", async ({ page }) => {
  const name = `E2E project ${Date.now()}`;
  // Another project, so a row takes the deleted one's place.
  const neighbour = await page.request.post("/api/projects", { data: { name: `Neighbour ${Date.now()}` } });
  expect(neighbour.status()).toBe(201);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await createProjectThroughUi(page, name);
  await page.screenshot({ path: `${ARTIFACTS}/home-with-project.png`, fullPage: true });

  await page.getByRole("button", { name: `Rename ${name}` }).click();
  const renamed = `${name} (renamed)`;
  await page.getByLabel(`New name for ${name}`).fill(renamed);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("link", { name: renamed, exact: true })).toBeVisible();

  // The rename reached the server: a fresh page load shows it.
  await page.reload();
  await expect(page.getByRole("link", { name: renamed, exact: true })).toBeVisible();

  await page.getByRole("button", { name: `Delete ${renamed}` }).click();
  await page.getByRole("button", { name: "Delete for good" }).click();
  await expect(page.getByRole("link", { name: renamed, exact: true })).toHaveCount(0);
  // The focus goes to the row that took its place.
  await expect(page.locator(":focus")).toHaveAttribute("aria-label", /^Delete (?!.*renamed)/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByRole("link", { name: renamed, exact: true })).toHaveCount(0);
});

test("refuses an empty project name with a clear message", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Give the new project a name." })).toBeVisible();
});

/** Axe with WCAG 2.2's target-size rule (off by default) on as well. */
const axeWithTargetSize = (page: Page) =>
  new AxeBuilder({ page }).options({ rules: { "target-size": { enabled: true } } });

const violationsOf = async (builder: AxeBuilder) =>
  (await builder.analyze()).violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );

async function createProjectThroughApi(
  request: APIRequestContext,
  label: string,
  definitions?: unknown,
): Promise<{ id: string; name: string }> {
  const created = await request.post("/api/projects", {
    data: { name: `${label} ${Date.now()}`, ...(definitions ? { definitions } : {}) },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: string; name: string };
}

test("rename and delete give the focus back to their buttons, and a rename's error stays in its row", async ({
  page,
  request,
}) => {
  const { name } = await createProjectThroughApi(request, "Focus");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const row = page.getByRole("listitem", { name, exact: true });
  const rename = row.getByRole("button", { name: `Rename ${name}` });
  const remove = row.getByRole("button", { name: `Delete ${name}` });
  const field = row.getByLabel(`New name for ${name}`);

  // Escape and Cancel close the field and hand the focus back to Rename (not to the page's body).
  await rename.click();
  await expect(field).toBeFocused();
  await field.press("Escape");
  await expect(rename).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(field).toBeFocused();
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(rename).toBeFocused();

  // An empty name is refused beside the field, which it describes; cancelling clears it.
  await rename.click();
  await field.fill("");
  await field.press("Enter");
  const problem = "A project needs a name.";
  await expect(row.getByText(problem)).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(problem);
  await expect(page.getByText(problem)).toHaveCount(1);
  expect(await violationsOf(axeWithTargetSize(page).include('[aria-label="Projects"]'))).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/home-rename-error-1280.png` });
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(rename).toBeFocused();
  await expect(page.getByText(problem)).toHaveCount(0);

  // Delete moves the focus into the confirmation, on the harmless Keep; Keep and Escape bring it back.
  await remove.click();
  const keep = row.getByRole("button", { name: "Keep" });
  await expect(keep).toBeFocused();
  await expect(page.getByText(problem)).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/home-confirm-delete-1280.png` });
  await keep.click();
  await expect(remove).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(keep).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(remove).toBeFocused();
  await expect(page.getByRole("link", { name, exact: true })).toBeVisible();

  // A successful rename hands the focus back to Rename as well.
  await rename.click();
  await field.fill(`${name} renamed`);
  await field.press("Enter");
  await expect(page.getByRole("button", { name: `Rename ${name} renamed` })).toBeFocused();
});

test("a project without an ai_human agent says how to get one; Run and Replay wait, with the reason", async ({
  page,
  request,
}) => {
  const { id } = await createProjectThroughApi(request, "Nothing to run");
  await page.goto(`/projects/${id}`);
  const threads = page.getByRole("region", { name: "Threads" });
  const runForm = threads.getByRole("form", { name: "Run an agent" });
  const howTo = /Add an ai_human agent in the studio, then run it here\./;
  await expect(threads.getByTestId("run-unavailable")).toContainText(howTo);
  await expect(threads.getByTestId("run-unavailable").getByRole("link", { name: "studio" })).toHaveAttribute(
    "href",
    `/projects/${id}/studio`,
  );
  for (const control of [
    runForm.getByLabel("Agent", { exact: true }),
    runForm.getByLabel("First message"),
    runForm.getByRole("button", { name: "Run" }),
  ]) {
    await expect(control).toBeDisabled();
    await expect(control).toHaveAccessibleDescription(howTo);
  }
  await expect(threads).not.toContainText("Pick an agent above");
  await expect(threads).toContainText("No runs yet: add an ai_human agent in the studio first");

  const replayPanel = page.getByRole("region", { name: "Replay runs" });
  const replay = replayPanel.getByRole("button", { name: "Replay", exact: true });
  await expect(replay).toBeDisabled();
  await expect(replay).toHaveAccessibleDescription(
    /Nothing to replay yet: no run of this project has finished/,
  );
  expect(await violationsOf(axeWithTargetSize(page).include('[aria-label="Threads"]'))).toEqual([]);
  expect(await violationsOf(axeWithTargetSize(page).include('[aria-label="Replay runs"]'))).toEqual([]);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/project-nothing-to-run-${width}.png` });
  });

  // With an ai_human agent the form is available; once a run has finished, Replay is too, live.
  const definitions = {
    agents: [{ name: "assistant", type: "ai_human", sideA: { prompt: "chat" } }],
    prompts: [{ name: "chat", toolDescription: "Chats", prompt: "Hi.", model: "demo", includeChat: true }],
    models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "hello" }] }],
    tools: [],
  };
  expect((await request.put(`/api/projects/${id}/definitions`, { data: definitions })).status()).toBe(200);
  await page.reload();
  await expect(runForm.getByLabel("First message")).toBeEnabled();
  await expect(runForm.getByRole("button", { name: "Run" })).toBeEnabled();
  await expect(threads.getByTestId("run-unavailable")).toHaveCount(0);
  await expect(replay).toBeDisabled();
  const created = await request.post("/api/threads", {
    data: { project_id: id, agent_id: "assistant", message: "hi" },
  });
  await waitIdle(request, ((await created.json()) as { threadId: string }).threadId, 2);
  await expect(replay).toBeEnabled({ timeout: 15_000 });
  await expect(replayPanel.getByTestId("replay-unavailable")).toHaveCount(0);
});

test("opens a project and shows its definitions and problems", async ({ page, request }) => {
  const created = await request.post("/api/projects", { data: { name: `Opened ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id, name } = (await created.json()) as { id: string; name: string };
  await page.goto("/");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Problems" })).toContainText("No problems found.");
  await expect(page).toHaveURL(new RegExp(`/projects/${id}$`));
  await page.screenshot({ path: `${ARTIFACTS}/project-page.png`, fullPage: true });
});

test("projects created in the UI and through the API survive a server restart", async ({ page }) => {
  // Two server starts (a build's cold start each) fit in 60 s only on a quiet machine.
  test.setTimeout(120_000);
  const database = await createIsolatedDatabaseConfig();
  const server = await startTestServer(database.env);
  try {
    await page.goto(server.baseUrl);
    await createProjectThroughUi(page, "Made in the browser");
    const viaApi = await fetch(`${server.baseUrl}/api/projects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Made through the API" }),
    });
    expect(viaApi.status).toBe(201);

    await server.kill();
    await server.restart();

    await page.goto(server.baseUrl);
    await expect(page.getByRole("link", { name: "Made in the browser", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Made through the API", exact: true })).toBeVisible();
  } finally {
    await server.stop();
    await database.drop();
  }
});
