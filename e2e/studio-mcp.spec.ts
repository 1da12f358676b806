// MCP tools in the studio: the server of this e2e run configures one stdio MCP server ("calc", the
// SDK fixture in test/support, through test/extensions/mcp.json); its tools are listed in the
// palette, one click adds a `kind: "mcp"` tool node whose card and inspector name the server and
// the tool, and the saved project has no diagnostic. The palette with the section passes axe.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

test.use({ viewport: { width: 1440, height: 900 } });

test("the palette lists a configured MCP server's tools and adds one as a tool node", async ({ page }) => {
  const created = await page.request.post("/api/projects", { data: { name: `MCP ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/projects/${id}/studio`);
  const palette = page.getByRole("complementary", { name: "Node palette" });
  const expand = palette.getByRole("button", { name: "Expand the node palette" });
  if (await expand.isVisible()) await expand.click();
  const mcp = palette.getByRole("list", { name: "MCP tools" });
  await expect(mcp.getByRole("button")).toHaveCount(3, { timeout: 20_000 });
  await expect(mcp).toContainText("add");
  await expect(mcp).toContainText("MCP · calc");

  // Search narrows the MCP section too.
  await palette.getByRole("searchbox", { name: "Search node kinds" }).fill("shout");
  await expect(mcp.getByRole("button")).toHaveCount(1);
  await palette.getByRole("searchbox", { name: "Search node kinds" }).fill("");

  await mcp.locator('[data-palette-entry="mcp:calc:add"]').click();
  const card = page.locator(".react-flow__node");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("mcp · calc / add");
  const inspector = page.getByRole("complementary", { name: "Inspector" });
  await expect(inspector.getByLabel("Name")).toHaveValue("add");
  await expect(inspector.getByLabel("MCP server id")).toHaveValue("calc");
  await expect(inspector.getByLabel("Tool (empty: every tool of the server)")).toHaveValue("add");
  await expect(inspector.getByLabel("Description")).toHaveValue("Adds two numbers.");

  await page.screenshot({ path: "e2e-artifacts/studio-mcp-1440.png" });
  const axe = await new AxeBuilder({ page }).include('[aria-label="Node palette"]').analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);

  await page.keyboard.press("Control+s");
  await expect
    .poll(async () => {
      const project = await (await page.request.get(`/api/projects/${id}`)).json();
      return { version: project.version, tools: project.definitions.tools };
    })
    .toMatchObject({
      version: 2,
      tools: [{ name: "add", kind: "mcp", server: "calc", tool: "add", args: { required: ["a", "b"] } }],
    });
  const saved = await (await page.request.get(`/api/projects/${id}`)).json();
  expect(saved.diagnostics.filter((d: { code: string }) => d.code === "unknown_mcp_server")).toEqual([]);
});
