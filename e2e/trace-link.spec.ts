// Traces out (docs/observability.md): with traces exported and TANDEM_TRACE_URL_TEMPLATE set, the
// thread page links to the run tree's trace in the team's tracing tool — the trace the thread's
// creation answered with (`trace_id`), opening in a new tab — and the page stays accessible (axe).
// Its own server: the shared e2e server exports nothing.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { createIsolatedDatabaseConfig } from "../test/support/database";
import { startOtlpReceiver } from "../test/support/otlp-receiver";
import { startTestServer } from "../test/support/server";

test("the thread page links to the run's trace", async ({ page, request }) => {
  const receiver = await startOtlpReceiver();
  const database = await createIsolatedDatabaseConfig();
  const server = await startTestServer({
    ...database.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    TANDEM_TRACE_URL_TEMPLATE: "http://localhost:16686/trace/{trace_id}",
  });
  try {
    const base = server.baseUrl;
    const created = await request.post(`${base}/api/projects`, {
      data: {
        name: "Traced",
        definitions: {
          agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
          prompts: [{ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo", includeChat: true }],
          models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "traced answer" }] }],
          tools: [],
        },
      },
    });
    expect(created.status()).toBe(201);
    const projectId = ((await created.json()) as { id: string }).id;
    const thread = await request.post(`${base}/api/threads`, {
      data: { project_id: projectId, agent_id: "assistant", message: "hello" },
    });
    const { threadId, trace_id } = (await thread.json()) as { threadId: string; trace_id: string };
    expect(trace_id).toMatch(/^[0-9a-f]{32}$/);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/threads/${threadId}`);
    await expect(page.getByRole("list", { name: "Messages" }).getByTestId("message").last()).toContainText(
      "traced answer",
    );
    const link = page.getByRole("link", { name: "Trace ↗" });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute("href", `http://localhost:16686/trace/${trace_id}`);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(link).toBeInViewport();
      await page.screenshot({ path: `e2e-artifacts/trace-link-${width}.png` });
    }
  } finally {
    await server.stop();
    await database.drop();
    await receiver.close();
  }
});
