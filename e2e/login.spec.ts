// Signing in when the server requires an API token (TANDEM_API_TOKEN): pages send the browser to
// /login, a wrong token is refused with a message, the right one lands on the page asked for, and
// with only the session cookie the project list loads and a thread's live view streams (EventSource
// cannot send an Authorization header, so this proves the cookie carries SSE).
import { expect, test } from "@playwright/test";
import { createIsolatedDatabaseConfig } from "../test/support/database";
import { startTestServer } from "../test/support/server";

const ARTIFACTS = "e2e-artifacts";
const TOKEN = "e2e-token-5f2a9c";

test("signs in with the API token and uses the app on the session cookie", async ({ page, request }) => {
  const database = await createIsolatedDatabaseConfig();
  const server = await startTestServer({ ...database.env, TANDEM_API_TOKEN: TOKEN });
  try {
    const base = server.baseUrl;
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const created = await request.post(`${base}/api/projects`, {
      headers: bearer,
      data: {
        name: "Guarded",
        definitions: {
          agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
          prompts: [{ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo", includeChat: true }],
          models: [
            {
              name: "demo",
              provider: "scripted",
              model: "s",
              script: [{ text: "streamed to a signed-in browser", delayMs: 1500 }],
            },
          ],
          tools: [],
        },
      },
    });
    expect(created.status()).toBe(201);
    const projectId = ((await created.json()) as { id: string }).id;
    expect((await request.get(`${base}/api/projects`)).status()).toBe(401);

    await page.goto(`${base}/projects/${projectId}`);
    await expect(page).toHaveURL(/\/login\?next=/);
    await page.getByLabel("API token").fill("not the token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("That token was not accepted.")).toBeVisible();

    await page.getByLabel("API token").fill(TOKEN);
    await page.screenshot({ path: `${ARTIFACTS}/login.png`, fullPage: true });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${base}/projects/${projectId}`);
    const cookies = await page.context().cookies(base);
    const session = cookies.find((cookie) => cookie.name === "tandem_session");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Strict");
    expect(session?.value).not.toContain(TOKEN);

    await page.goto(`${base}/`);
    await expect(page.getByRole("link", { name: "Guarded", exact: true })).toBeVisible();

    const thread = await request.post(`${base}/api/threads`, {
      headers: bearer,
      data: { project_id: projectId, agent_id: "assistant", message: "hello" },
    });
    const threadId = ((await thread.json()) as { threadId: string }).threadId;
    await page.goto(`${base}/threads/${threadId}`);
    await expect(page.getByRole("list", { name: "Messages" }).getByTestId("message").last()).toContainText(
      "streamed to a signed-in browser",
    );
  } finally {
    await server.stop();
    await database.drop();
  }
});
