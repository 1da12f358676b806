// Fork and diff in the browser (issue 21): "Edit and fork" on a user message opens the fork with the
// edited message answered and a stored link back to the source ("Forked from <name> at message #n",
// also after a reload), the original stays as it was, "Compare with original" shows the two runs
// aligned with the first divergence highlighted; "Compare with…" picks another run of the project,
// and two identical runs show no divergence; a fork of a run with a subagent shows the copied child,
// which names the thread it was copied from. Axe on the diff view; screenshots at three widths.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { waitIdle } from "../test/support/e2e-threads";
import { atEachWidth } from "../test/support/e2e-widths";
import { assetBundle } from "../test/support/subagent-bundles";

const ARTIFACTS = "e2e-artifacts";

async function chatProject(request: APIRequestContext): Promise<string> {
  const definitions = {
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [
      {
        name: "chat",
        toolDescription: "Chats",
        prompt: "You are helpful.",
        model: "demo",
        includeChat: true,
      },
    ],
    models: [
      {
        name: "demo",
        provider: "scripted",
        model: "scripted",
        inputPrice: 1,
        outputPrice: 2,
        script: [{ text: "Here is a fact about {{input}}." }, { text: "And another one about {{input}}." }],
      },
    ],
    tools: [],
  };
  const project = await request.post("/api/projects", { data: { name: `Fork ${Date.now()}`, definitions } });
  expect(project.status()).toBe(201);
  return ((await project.json()) as { id: string }).id;
}

async function run(request: APIRequestContext, projectId: string, first: string, second: string) {
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "assistant", message: first },
  });
  const threadId = ((await created.json()) as { threadId: string }).threadId;
  await waitIdle(request, threadId, 2);
  await request.post(`/api/threads/${threadId}/messages`, { data: { content: second } });
  await waitIdle(request, threadId, 4);
  return threadId;
}

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByTestId("message");

test("edit and fork a message, then compare the fork with the original", async ({ page, request }) => {
  const projectId = await chatProject(request);
  const original = await run(request, projectId, "apples", "bananas");
  const before = await (await request.get(`/api/threads/${original}/messages?includeSilent=true`)).text();

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/threads/${original}`);
  await expect(messages(page)).toHaveCount(4);
  const bananas = messages(page).nth(2);
  await bananas.hover();
  await bananas.getByRole("button", { name: "Edit and fork" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit and fork" });
  await expect(dialog.getByLabel("Edited message")).toHaveValue("bananas");
  const dialogAxe = await new AxeBuilder({ page }).include('[aria-label="Edit and fork"]').analyze();
  expect(dialogAxe.violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/fork-dialog-1440.png` });
  // An edit needs text: with none, the button waits and says why (it does not fail after the click).
  const forkWithMessage = dialog.getByRole("button", { name: "Fork with this message" });
  await dialog.getByLabel("Edited message").fill("  ");
  await expect(forkWithMessage).toBeDisabled();
  await expect(forkWithMessage).toHaveAccessibleDescription(
    "Write the message the fork should send instead of this one.",
  );
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/fork-dialog-empty-1440.png` });
  await dialog.getByLabel("Edited message").fill("cherries");
  await expect(forkWithMessage).toBeEnabled();
  await forkWithMessage.click();

  await expect(page).not.toHaveURL(new RegExp(original));
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);
  // The stored fork link: the source by name, the message by its place in the source's transcript.
  const banner = page.getByTestId("forked-from");
  await expect(banner).toContainText("Forked from assistant at message #3; the original is unchanged.");
  await expect(banner.getByRole("link", { name: "assistant" })).toHaveAttribute(
    "href",
    `/threads/${original}`,
  );
  // The fork's scripted model goes on where the copied history left off: the script's second line.
  await expect(messages(page)).toHaveCount(4);
  await expect(messages(page).nth(2)).toContainText("cherries");
  await expect(messages(page).nth(3)).toContainText("And another one about cherries.");
  expect(await (await request.get(`/api/threads/${original}/messages?includeSilent=true`)).text()).toBe(
    before,
  );
  const forkPage = await new AxeBuilder({ page }).include('[aria-label="Selected thread"]').analyze();
  expect(forkPage.violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/fork-thread-1440.png` });

  // "Compare with…" on the fork marks its source as the original, with when it started and its size.
  await page.getByRole("button", { name: "Compare with…" }).click();
  const picker = page.getByRole("dialog", { name: "Compare with another run" });
  const originalChoice = picker.getByTestId("compare-run").filter({ hasText: original.slice(0, 8) });
  await expect(originalChoice.getByTestId("compare-run-relation")).toHaveText("original");
  await expect(originalChoice).toContainText("4 messages");
  await expect(originalChoice.locator("time")).toHaveText(/\d/);
  await expect(picker.getByTestId("compare-run-relation")).toHaveCount(1);
  await page.screenshot({ path: `${ARTIFACTS}/compare-dialog-fork-1440.png` });
  await page.keyboard.press("Escape");
  await expect(picker).toHaveCount(0);

  await page.getByRole("link", { name: "Compare with original" }).click();
  await expect(page).toHaveURL(/\/threads\/diff\?a=/);
  const summary = page.getByTestId("diff-summary");
  // Where the runs part, in plain words (no "root", no field names).
  await expect(summary).toContainText(
    "The runs first differ at step 3: the messages differ in the text. 2 of 4 steps differ.",
  );
  const steps = page.getByTestId("diff-step");
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toHaveAttribute("data-same", "true");
  await expect(steps.nth(2)).toHaveAttribute("data-same", "false");
  await expect(steps.nth(2)).toHaveAccessibleName("Step 3, first divergence");
  await expect(steps.nth(2)).toBeInViewport();
  // Scrolled to on load, not focused (no focus ring until the reader asks); "Jump to it" focuses it.
  await expect(steps.nth(2)).not.toBeFocused();
  await page.screenshot({ path: `${ARTIFACTS}/fork-diff-load-1440.png` });
  await summary.getByRole("button", { name: "Jump to it" }).click();
  await expect(steps.nth(2)).toBeFocused();
  await expect(page.getByRole("table", { name: "Run figures" })).toBeVisible();

  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
  await atEachWidth(page, async (width) => {
    await page.screenshot({ path: `${ARTIFACTS}/fork-diff-${width}.png`, fullPage: true });
  });
});

test("fork from here, compare two identical runs, and the diff view's empty and error states", async ({
  page,
  request,
}) => {
  const projectId = await chatProject(request);
  const first = await run(request, projectId, "tides", "waves");
  const second = await run(request, projectId, "tides", "waves");

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${first}`);
  await expect(messages(page)).toHaveCount(4);
  const answer = messages(page).nth(1);
  await answer.hover();
  await page.screenshot({ path: `${ARTIFACTS}/fork-hover-1280.png` });
  await answer.getByRole("button", { name: "Fork from here" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork from here" });
  await dialog.getByRole("button", { name: "Fork", exact: true }).click();
  await expect(page).not.toHaveURL(new RegExp(first));
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);
  await expect(messages(page)).toHaveCount(2);
  await expect(page.getByTestId("forked-from")).toContainText("Forked from assistant at message #2");
  // The link back to the source survives a reload (it is stored, not carried in the URL).
  await page.reload();
  await expect(page.getByTestId("forked-from")).toContainText("Forked from assistant at message #2");
  await page.getByTestId("forked-from").getByRole("link", { name: "assistant" }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${first}$`));
  await expect(page.getByTestId("forked-from")).toHaveCount(0);

  await page.goto(`/threads/${first}`);
  await page.getByRole("button", { name: "Compare with…" }).click();
  const picker = page.getByRole("dialog", { name: "Compare with another run" });
  // The other runs of the project: the second run and the fork, each with its start and size.
  await expect(picker.getByRole("link")).toHaveCount(2);
  const secondChoice = picker.getByTestId("compare-run").filter({ hasText: second.slice(0, 8) });
  await expect(secondChoice).toContainText("4 messages");
  await expect(secondChoice.getByTestId("compare-run-relation")).toHaveCount(0);
  await expect(picker.getByTestId("compare-run-relation")).toHaveText(["fork of this run"]);
  const pickerAxe = await new AxeBuilder({ page })
    .include('[aria-label="Compare with another run"]')
    .analyze();
  expect(pickerAxe.violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/compare-dialog-1280.png` });
  await picker
    .getByRole("link")
    .filter({ hasText: second.slice(0, 8) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/threads/diff\\?a=${first}&b=${second}`));
  await expect(page.getByTestId("diff-summary")).toContainText("No divergence: all 4 steps are the same.");
  await expect(page.getByTestId("delta-output-tokens")).toHaveText("±0");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/diff-identical-1280.png`, fullPage: true });

  await page.goto("/threads/diff");
  await expect(page.getByText("Choose two runs to compare.")).toBeVisible();
  await page.goto(`/threads/diff?a=${first}&b=00000000-0000-4000-8000-000000000000`);
  const missing = page.getByRole("alert").filter({ hasText: "does not exist" });
  await expect(missing).toContainText("One of these threads does not exist.");
  await page.screenshot({ path: `${ARTIFACTS}/diff-error-1280.png` });
  // A way back: to the run that exists.
  await missing.getByRole("link", { name: `Back to run A (assistant ${first.slice(0, 8)})` }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${first}$`));
  // Neither run exists: back to the projects.
  await page.goto(
    "/threads/diff?a=00000000-0000-4000-8000-000000000000&b=00000000-0000-4000-8000-000000000001",
  );
  await page.getByRole("alert").getByRole("link", { name: "Go to the projects" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a fork of a run with a subagent takes the child along, and the copy says where it comes from", async ({
  page,
  request,
}) => {
  const definitions = assetBundle({
    config: { blocking: true },
    orchestratorScript: [
      { toolCalls: [{ name: "asset_subagent", args: { message: "a castle" } }] },
      { text: "castle done" },
    ],
  });
  const project = await request.post("/api/projects", {
    data: { name: `Fork tree ${Date.now()}`, definitions },
  });
  const projectId = ((await project.json()) as { id: string }).id;
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "orchestrator", message: "build" },
  });
  const sourceId = ((await created.json()) as { threadId: string }).threadId;
  await waitIdle(request, sourceId, 4);
  const sourceTree = (await (await request.get(`/api/threads/${sourceId}/tree`)).json()) as {
    root: { children: { id: string }[] };
  };
  const sourceChild = sourceTree.root.children[0]!.id;

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/threads/${sourceId}`);
  const reply = messages(page).filter({ hasText: "castle done" });
  await reply.hover();
  await reply.getByRole("button", { name: "Fork from here" }).click();
  await page
    .getByRole("dialog", { name: "Fork from here" })
    .getByRole("button", { name: "Fork", exact: true })
    .click();
  await expect(page).not.toHaveURL(new RegExp(sourceId));
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("forked-from")).toContainText("Forked from orchestrator at message #4");
  const tree = page.getByRole("tree", { name: "Threads" });
  await expect(tree.getByRole("treeitem")).toHaveCount(2);
  await tree.getByRole("treeitem", { name: /^asset_subagent/ }).click();
  const copied = page.getByTestId("copied-from");
  await expect(copied).toContainText(`Copied with the fork from ${sourceChild.slice(0, 8)}`);
  await expect(copied.getByRole("link")).toHaveAttribute("href", `/threads/${sourceChild}`);
  const axe = await new AxeBuilder({ page }).include('[aria-label="Selected thread"]').analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/fork-tree-child-1280.png` });
});
