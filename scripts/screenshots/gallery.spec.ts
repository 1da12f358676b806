// The screenshot gallery: every screen of Tandem at 1440×900, written to docs/screenshots/ with a
// README that lists them. Run by `npm run screenshots` (scripts/screenshots/playwright.config.ts),
// never by `npm test`. Each shot waits for its screen to be ready, so a missing screen fails the run.
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { observableAssetBundle } from "../../test/support/subagent-bundles";

const OUT = path.resolve(import.meta.dirname, "../../docs/screenshots");
const shots: { file: string; title: string }[] = [];

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
  const liveId = await createProject(request, "Asset pipeline (live demo)", observableAssetBundle(6000));
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

  // Inspector for the first agent, the code pane, then a problem on the canvas.
  await page.locator(".react-flow__node-agent").first().click();
  await expect(
    page.getByRole("complementary", { name: "Inspector" }).getByLabel("Name", { exact: true }),
  ).toBeVisible();
  await shoot(page, "05-studio-inspector", "Studio: the inspector of an agent");
  await expect(page.getByLabel("TypeScript code").first()).toBeVisible();
  await shoot(page, "06-studio-code", "Studio: the code pane (CodeMirror, in sync with the canvas)");
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
  // The scripted models wait 6 s per reply, so the child is normally still running here.
  const child = tree.getByRole("treeitem", { name: /asset_subagent/ });
  await expect(child).toBeVisible({ timeout: 60_000 });
  await shoot(page, "14-thread-running", "Thread page: a subagent tree while it runs");
  await expect(child).toHaveAttribute("data-status", /^(completed|idle|stopped|failed)$/, {
    timeout: 120_000,
  });
  await page.waitForTimeout(1500);
  await shoot(page, "15-thread-finished", "Thread page: the tree after the run");
  await page.goto(`/projects/${liveId}`);
  await expect(page.getByRole("region", { name: "Threads" })).toBeVisible();
  await shoot(page, "16-project-threads", "Project page: its threads, definitions and versions");

  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Sign in to Tandem" })).toBeVisible();
  await shoot(page, "17-login", "Sign in");
});

test.afterAll(() => {
  const lines = [
    "# Screenshot gallery",
    "",
    "Every screen of Tandem at 1440×900 in Chromium, written by `npm run screenshots` (after",
    "`npm run build`; see `scripts/screenshots/`). Regenerate it when a screen changes.",
    "",
    ...shots.map((shot) => `- **${shot.title}** — [\`${shot.file}\`](${shot.file})`),
    "",
    ...shots.map((shot) => `### ${shot.title}\n\n![${shot.title}](${shot.file})\n`),
  ];
  fs.writeFileSync(path.join(OUT, "README.md"), `${lines.join("\n").trimEnd()}\n`);
});
