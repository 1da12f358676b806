// Forms that act are offered only once the page can act on them. Before hydration a form has no
// submit handler: a click submits it natively — a reload that starts nothing and loses what was
// typed. So Create project (home), Run and Replay runs (project page) are disabled in the HTML the
// server sends, and enabled once the page is hydrated.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { waitIdle } from "../test/support/e2e-threads";

const DEFINITIONS = {
  agents: [{ name: "lead", sideA: { prompt: "lead_chat" } }],
  prompts: [
    { name: "lead_chat", toolDescription: "Leads", prompt: "Lead.", model: "demo", includeChat: true },
  ],
  models: [{ name: "demo", provider: "scripted", model: "scripted", script: [{ text: "Done: {{input}}" }] }],
  tools: [],
};

async function projectWithOneRun(request: APIRequestContext): Promise<string> {
  const project = await request.post("/api/projects", {
    data: { name: `Hydration gates ${Date.now()}`, definitions: DEFINITIONS },
  });
  expect(project.status()).toBe(201);
  const projectId = ((await project.json()) as { id: string }).id;
  const created = await request.post("/api/threads", {
    data: { project_id: projectId, agent_id: "lead", message: "first" },
  });
  expect(created.status()).toBe(201);
  await waitIdle(request, ((await created.json()) as { threadId: string }).threadId, 2);
  return projectId;
}

/** The submit button of the element labelled `label` in the page's HTML as the server sends it. */
async function serverSubmitButton(request: APIRequestContext, url: string, label: string): Promise<string> {
  const html = await (await request.get(url)).text();
  const at = html.indexOf(`aria-label="${label}"`);
  expect(at, `"${label}" in the server's HTML of ${url}`).toBeGreaterThan(-1);
  const button = /<button[^>]*type="submit"[^>]*>/.exec(html.slice(at))?.[0] ?? "";
  expect(button).not.toBe("");
  return button;
}

test("Create project is disabled in the server's HTML and enabled after hydration", async ({ page }) => {
  expect(await serverSubmitButton(page.request, "/", "Create project")).toMatch(/\sdisabled=""/);
  await page.goto("/");
  await expect(page.locator('form[aria-label="Create project"] button[type="submit"]')).toBeEnabled({
    timeout: 10_000,
  });
});

test("Run and Replay are disabled in the project page's server HTML and enabled after hydration", async ({
  page,
}) => {
  const projectId = await projectWithOneRun(page.request);
  const url = `/projects/${projectId}`;
  expect(await serverSubmitButton(page.request, url, "Run an agent")).toMatch(/\sdisabled=""/);
  expect(await serverSubmitButton(page.request, url, "Replay runs")).toMatch(/\sdisabled=""/);
  await page.goto(url);
  await expect(
    page.getByRole("form", { name: "Run an agent" }).getByRole("button", { name: "Run" }),
  ).toBeEnabled({
    timeout: 10_000,
  });
  await expect(
    page.getByRole("region", { name: "Replay runs" }).getByRole("button", { name: "Replay", exact: true }),
  ).toBeEnabled({ timeout: 10_000 });
});
