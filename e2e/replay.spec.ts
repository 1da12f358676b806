// Replay in the browser (issue 21): "Replay…" on a run's page reproduces it against the version it
// ran with (the banner says every request matched and no model was called); after the prompt is
// edited, a replay against the latest definitions shows where it diverged; "Replay runs" on the
// project page replays the latest runs and gives each one's verdict. Axe on the dialog, the banner
// and the panel; screenshots at three widths.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { waitIdle } from "../test/support/e2e-threads";

const ARTIFACTS = "e2e-artifacts";

function definitions(prompt: string) {
  return {
    agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
    prompts: [{ name: "chat", toolDescription: "Chats", prompt, model: "demo", includeChat: true }],
    models: [
      {
        name: "demo",
        provider: "scripted",
        model: "scripted",
        script: [{ text: "Here is a fact about {{input}}." }, { text: "And another one about {{input}}." }],
      },
    ],
    tools: [],
  };
}

async function recordedRun(request: APIRequestContext): Promise<{ projectId: string; threadId: string }> {
  const project = await request.post("/api/projects", {
    data: { name: `Replay ${Date.now()}`, definitions: definitions("You are helpful.") },
  });
  expect(project.status()).toBe(201);
  const projectId = ((await project.json()) as { id: string }).id;
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "assistant", message: "apples" },
  });
  const threadId = ((await created.json()) as { threadId: string }).threadId;
  await waitIdle(request, threadId, 2);
  await request.post(`/api/threads/${threadId}/messages`, { data: { content: "bananas" } });
  await waitIdle(request, threadId, 4);
  return { projectId, threadId };
}

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByTestId("message");

async function replayFromPage(page: Page, threadId: string, choice: RegExp) {
  await page.goto(`/threads/${threadId}`);
  await expect(messages(page)).toHaveCount(4);
  await page.getByRole("button", { name: "Replay…" }).click();
  const dialog = page.getByRole("dialog", { name: "Replay this run" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("radio", { name: choice }).check();
  return dialog;
}

test("replay a run as it was, then against edited definitions, and see where it diverges", async ({
  page,
  request,
}) => {
  const { projectId, threadId } = await recordedRun(request);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The page of a run that is not a replay asks for no replay progress (nor shows a banner).
  const replayReads: string[] = [];
  page.on("request", (sent) => {
    if (/\/api\/threads\/[^/]+\/replay$/.test(new URL(sent.url()).pathname) && sent.method() === "GET")
      replayReads.push(sent.url());
  });

  const dialog = await replayFromPage(page, threadId, /version it ran with/);
  expect(replayReads).toEqual([]);
  await expect(page.getByTestId("replay-banner")).toHaveCount(0);
  const dialogAxe = await new AxeBuilder({ page }).include('[aria-label="Replay this run"]').analyze();
  expect(dialogAxe.violations).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/replay-dialog-1440.png` });
  await dialog.getByRole("button", { name: "Replay", exact: true }).click();
  await expect(page).not.toHaveURL(new RegExp(`/threads/${threadId}$`));
  const banner = page.getByTestId("replay-banner");
  await expect(banner).toContainText("Finished: 2 inputs replayed", { timeout: 20_000 });
  await expect(banner).toContainText("2 model calls from the recording, 0 by a model");
  await expect(page.getByTestId("replay-no-divergence")).toHaveText(
    "No divergence: every request matched the recording.",
  );
  await expect(messages(page)).toHaveCount(4);
  await expect(messages(page).nth(3)).toContainText("And another one about bananas.");

  // The prompt changes: a replay against the latest definitions diverges at the first call.
  expect(
    (
      await request.put(`/api/projects/${projectId}/definitions`, { data: definitions("You are terse.") })
    ).status(),
  ).toBe(200);
  const latest = await replayFromPage(page, threadId, /latest saved definitions/);
  await latest.getByRole("button", { name: "Replay", exact: true }).click();
  await expect(page.getByTestId("replay-divergence-count")).toHaveText("Diverged in 1 thread", {
    timeout: 20_000,
  });
  const divergence = page.getByTestId("replay-divergence");
  await expect(divergence).toContainText(
    "model call 1 of side A: its request changed at messages[0].content",
  );
  // The change itself, as a word diff: the word removed and the word added.
  await expect(divergence.locator("del")).toContainText("helpful");
  await expect(divergence.locator("ins")).toContainText("terse");
  await expect(page.getByTestId("replay-banner")).toContainText("Finished", { timeout: 20_000 });
  const bannerAxe = await new AxeBuilder({ page }).include('[aria-label="Replay"]').analyze();
  expect(bannerAxe.violations).toEqual([]);
  for (const width of [1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : width === 1440 ? 900 : 800 });
    const box = await page.getByTestId("replay-banner").boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/replay-divergence-${width}.png` });
  }
  await page.getByRole("link", { name: "Compare with original" }).click();
  await expect(page).toHaveURL(/\/threads\/diff\?a=/);

  // The project page replays its latest runs (the replays themselves are not picked) with a verdict each.
  await page.goto(`/projects/${projectId}`);
  const panel = page.getByRole("region", { name: "Replay runs" });
  // A count out of range is said beside the field (not silently changed) and cannot be sent.
  const latestField = panel.getByLabel("Latest");
  for (const wrong of ["0", "51", ""]) {
    await latestField.fill(wrong);
    await expect(panel).toContainText("Enter a whole number from 1 to 50.");
    await expect(latestField).toHaveAttribute("aria-invalid", "true");
    await expect(panel.getByRole("button", { name: "Replay", exact: true })).toBeDisabled();
  }
  await latestField.fill("5");
  await expect(panel).not.toContainText("Enter a whole number");
  await panel.getByRole("button", { name: "Replay", exact: true }).click();
  await expect(panel.getByTestId("replay-runs-summary")).toHaveText(
    "0 of 1 match their recording; 1 diverged",
    {
      timeout: 20_000,
    },
  );
  await expect(panel.getByTestId("replay-run")).toContainText(
    "Diverged: assistant, side A call 1 at messages[0].content",
  );
  // The replayed run is named by its short id, as in the threads list (and by its name when it has one).
  await expect(panel.getByTestId("replay-run")).toContainText(threadId.slice(0, 8));
  const panelAxe = await new AxeBuilder({ page }).include('[aria-label="Replay runs"]').analyze();
  expect(panelAxe.violations).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/replay-runs-1440.png`, fullPage: true });
});

test("a run nothing was posted to offers Replay and Compare disabled, with the reason", async ({
  page,
  request,
}) => {
  const project = await request.post("/api/projects", {
    data: { name: `Empty run ${Date.now()}`, definitions: definitions("You are helpful.") },
  });
  const projectId = ((await project.json()) as { id: string }).id;
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "assistant" },
  });
  expect(created.status()).toBe(201);
  const threadId = ((await created.json()) as { threadId: string }).threadId;
  await page.goto(`/threads/${threadId}`);
  const replay = page.getByRole("button", { name: "Replay…" });
  const compare = page.getByRole("button", { name: "Compare with…" });
  await expect(replay).toBeDisabled();
  await expect(replay).toHaveAttribute("title", "Nothing to replay yet: no message was posted to this run.");
  await expect(compare).toBeDisabled();
  await expect(compare).toHaveAttribute("title", "Nothing to compare yet: this run has no messages.");
  // The first message makes both available, live.
  await request.post(`/api/threads/${threadId}/messages`, { data: { content: "apples" } });
  await expect(replay).toBeEnabled();
  await expect(compare).toBeEnabled();
  await expect(replay).not.toHaveAttribute("title", /.+/);
});
