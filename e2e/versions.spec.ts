// The project page's version history (diff, restore) and the import control.
import { expect, test } from "@playwright/test";

const ARTIFACTS = "e2e-artifacts";

const chatBundle = {
  agents: [{ name: "assistant", sideA: { prompt: "assistant_prompt" } }],
  prompts: [
    {
      name: "assistant_prompt",
      toolDescription: "Answers questions",
      prompt: "You are a helpful assistant.",
      model: "demo",
      includeChat: true,
    },
  ],
  models: [{ name: "demo", provider: "scripted", model: "scripted", script: [{ text: "Hello!" }] }],
  tools: [],
};

test("shows the versions, diffs one, restores v1 as v3 and imports a JSON bundle", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/projects", { data: { name: `Versions ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id, name } = (await created.json()) as { id: string; name: string };
  const saved = await request.put(`/api/projects/${id}/definitions`, { data: chatBundle });
  expect(saved.status()).toBe(200);

  await page.goto(`/projects/${id}`);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const versions = page.getByRole("region", { name: "Versions" });
  await expect(versions.getByRole("listitem", { name: "Version 2" })).toBeVisible();
  await expect(versions.getByRole("listitem", { name: "Version 1" })).toBeVisible();
  await expect(versions.getByRole("listitem", { name: "Version 2" })).toContainText(
    "1 agent · 1 prompt · 1 model · 0 tools",
  );

  const second = versions.getByRole("listitem", { name: "Version 2" });
  await second.getByRole("button", { name: "Diff with previous" }).click();
  const changes = second.getByRole("region", { name: "Changes in version 2" });
  await expect(changes).toContainText("Added agents: assistant");
  // Open, the toggle says what it does now.
  await expect(second.getByRole("button", { name: "Hide diff" })).toHaveAttribute("aria-expanded", "true");
  await expect(changes).toContainText("Added models: demo");
  await page.screenshot({ path: `${ARTIFACTS}/versions-diff.png`, fullPage: true });

  const first = versions.getByRole("listitem", { name: "Version 1" });
  await first.getByRole("button", { name: "Restore" }).click();
  await first.getByRole("button", { name: "Restore version 1" }).click();
  const third = versions.getByRole("listitem", { name: "Version 3" });
  await expect(third).toBeVisible();
  await expect(third).toContainText("0 agents");
  await expect(page.getByText("version 3", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Agents" })).toContainText("None yet.");
  await page.screenshot({ path: `${ARTIFACTS}/versions-restored.png`, fullPage: true });

  const imported = {
    ...chatBundle,
    agents: [{ name: "imported_agent", sideA: { prompt: "assistant_prompt" } }],
  };
  await page.getByLabel("Import definitions").setInputFiles({
    name: "bundle.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(imported)),
  });
  await expect(page.getByRole("status")).toContainText("Imported bundle.json as version 4");
  await expect(page.getByRole("region", { name: "Agents" })).toContainText("imported_agent");
  await expect(versions.getByRole("listitem", { name: "Version 4" })).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/versions-imported.png`, fullPage: true });
});

test("shows line and column of a TypeScript import that cannot be read", async ({ page, request }) => {
  const created = await request.post("/api/projects", { data: { name: `Broken import ${Date.now()}` } });
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/projects/${id}`);
  await page.getByLabel("Import definitions").setInputFiles({
    name: "agents.ts",
    mimeType: "text/plain",
    buffer: Buffer.from("export const broken = defineModel({\n  name: 'm',\n"),
  });
  const problems = page.getByRole("list", { name: "Import problems" });
  await expect(problems).toContainText(/\d+:\d+/);
  // The problem is said once: in the list, under a summary that does not repeat it.
  const refused = page.getByRole("region", { name: "Import" }).getByRole("alert");
  await expect(refused).toContainText("Not imported: 1 problem.");
  await expect(refused.getByText(/Expected/)).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Versions" }).getByRole("listitem")).toHaveCount(1);
  await page.screenshot({ path: `${ARTIFACTS}/versions-import-refused.png`, fullPage: true });
});
