// The home page: create, rename and delete projects through the UI; they survive a restart.
import { expect, type Page, test } from "@playwright/test";
import { createIsolatedDatabaseConfig } from "../test/support/database";
import { startTestServer } from "../test/support/server";

const ARTIFACTS = "e2e-artifacts";

/** Creates a project on the home page: it opens in the studio; back on the home page, it is listed. */
async function createProjectThroughUi(page: Page, name: string) {
  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/[^/]+\/studio$/);
  await expect(page.getByRole("button", { name: "Templates" })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
}

test("creates, renames and deletes a project", async ({ page }) => {
  const name = `E2E project ${Date.now()}`;
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
  await page.reload();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByRole("link", { name: renamed, exact: true })).toHaveCount(0);
});

test("refuses an empty project name with a clear message", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Give the new project a name." })).toBeVisible();
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
