// Layout that fits: at 1280×800, 1440×900 and 1920×1080 the studio toolbar is one row with nothing
// overflowing, and every menu, popover and dialog of the studio and the thread page opens inside
// the viewport (the Run form used to open at x = −128 px at 1440). The favicon and the icon are
// served, and axe-core finds no violation (of any impact) on the home, studio and thread pages.
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { observableAssetBundle } from "../test/support/subagent-bundles";

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

async function createProject(request: APIRequestContext, name: string): Promise<string> {
  const created = await request.post("/api/projects", {
    data: { name, definitions: observableAssetBundle(300) },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Fails unless the element's box lies wholly inside the viewport. */
async function expectInViewport(page: Page, locator: Locator, what: string) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error(`${what}: no box`);
  const where = `${what} at ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)} in ${viewport.width}×${viewport.height}`;
  expect(box.x, where).toBeGreaterThanOrEqual(0);
  expect(box.y, where).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, where).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, where).toBeLessThanOrEqual(viewport.height);
}

/** One row: every control of the toolbar on the same line, none cut off or outside the bar. */
async function expectSingleRowToolbar(page: Page) {
  const toolbar = page.getByRole("toolbar", { name: "Studio tools" });
  const layout = await toolbar.evaluate((bar) => {
    const barBox = bar.getBoundingClientRect();
    const controls = [...bar.querySelectorAll<HTMLElement>("button, a, [role=group]")].filter(
      (control) => control.offsetParent !== null,
    );
    return {
      barHeight: barBox.height,
      overflow: bar.scrollWidth - bar.clientWidth,
      controls: controls.map((control) => {
        const box = control.getBoundingClientRect();
        return {
          name: control.getAttribute("aria-label") ?? control.textContent?.trim() ?? "",
          top: box.top - barBox.top,
          bottom: barBox.bottom - box.bottom,
          left: box.left - barBox.left,
          right: barBox.right - box.right,
          clipped: control.scrollWidth > control.clientWidth + 1,
        };
      }),
    };
  });
  expect(layout.overflow, "toolbar scrolls sideways").toBeLessThanOrEqual(0);
  expect(layout.barHeight, "toolbar height (one row)").toBeLessThan(48);
  for (const control of layout.controls) {
    expect(control.top, `${control.name} above the bar`).toBeGreaterThanOrEqual(0);
    expect(control.bottom, `${control.name} below the bar`).toBeGreaterThanOrEqual(0);
    expect(control.left, `${control.name} left of the bar`).toBeGreaterThanOrEqual(0);
    expect(control.right, `${control.name} right of the bar`).toBeGreaterThanOrEqual(0);
    expect(control.clipped, `${control.name} text cut`).toBe(false);
  }
  for (const name of ["Save", "Export", "Run"]) {
    await expect(toolbar.getByRole("button", { name, exact: true })).toBeVisible();
  }
}

/** axe-core on the whole page: no violation of any impact (minor and moderate included). */
async function expectNoAxeViolations(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(violations, `${what}: axe violations`).toEqual([]);
}

test("serves the favicon and the app icon", async ({ request }) => {
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toMatch(/icon/);
  const svg = await request.get("/favicon.svg");
  expect(svg.status()).toBe(200);
  expect(await svg.text()).toContain("<svg");
  const home = await (await request.get("/")).text();
  const icon = /<link rel="icon" href="(\/icon\.svg[^"]*)"/.exec(home)?.[1];
  expect(icon, "an icon link in the page head").toBeTruthy();
  expect((await request.get(icon ?? "")).status()).toBe(200);
});

for (const viewport of VIEWPORTS) {
  test(`studio toolbar, menus and dialogs fit at ${viewport.width}×${viewport.height}`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const id = await createProject(request, `Fit ${viewport.width} ${"long name ".repeat(12)}`);
    await page.goto(`/projects/${id}/studio`);
    await expect(page.locator(".react-flow__node").first()).toBeVisible();

    // A long project name is cut with an ellipsis in the breadcrumb, and the full name is its tooltip.
    const crumb = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link");
    await expect(crumb).toHaveAttribute("title", /^Fit \d+ long name/);
    await expectInViewport(page, page.getByRole("navigation", { name: "Breadcrumb" }), "breadcrumb");
    await expectSingleRowToolbar(page);

    const openAndCheck = async (trigger: Locator, panel: Locator, what: string) => {
      await trigger.click();
      await expectInViewport(page, panel, what);
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();
    };
    await openAndCheck(
      page.getByRole("button", { name: "Templates" }),
      page.getByRole("menu", { name: "Templates" }),
      "templates menu",
    );
    await openAndCheck(
      page.getByRole("button", { name: "Export" }),
      page.getByRole("menu", { name: "Export" }),
      "export menu",
    );
    // Run opens the playground beside the canvas: inside the viewport, its agent field usable.
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const playground = page.getByRole("complementary", { name: "Playground" });
    await expectInViewport(page, playground, "playground");
    await expect(playground.getByLabel("Agent")).toBeVisible();
    await playground.getByRole("button", { name: "Close the playground" }).click();
    await expect(playground).toBeHidden();

    for (const [name, dialog] of [
      ["Command palette", "Command palette"],
      ["Keyboard shortcuts", "Keyboard shortcuts"],
      [/^Models/, "Models"],
      ["Version history", "Version history"],
    ] as const) {
      await openAndCheck(
        page.getByRole("button", { name, exact: true }),
        page.getByRole("dialog", { name: dialog }),
        String(name),
      );
    }

    // A right-click in the canvas's bottom-right corner flips the menu back into the viewport.
    const pane = await page.locator(".react-flow__pane").boundingBox();
    if (!pane) throw new Error("no canvas");
    // (along the bottom edge, from the middle outwards, on empty canvas: the corners hold the zoom
    // controls and the minimap, and a card or an edge label may sit anywhere else).
    const spot = await page.evaluate(({ x, y, width, height }) => {
      const bottom = y + height - 6;
      for (let offset = 0; offset < width / 2 - 60; offset += 8) {
        for (const at of [x + width / 2 - offset, x + width / 2 + offset]) {
          if (document.elementFromPoint(at, bottom)?.classList.contains("react-flow__pane")) return at;
        }
      }
      return null;
    }, pane);
    if (spot === null) throw new Error("no empty canvas along the bottom edge");
    await page.mouse.click(spot, pane.y + pane.height - 6, { button: "right" });
    await expectInViewport(page, page.getByRole("menu", { name: "Canvas actions" }), "canvas menu");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu", { name: "Canvas actions" })).toBeHidden();
  });
}

test("the thread page fits and its popovers stay in view at every width", async ({ page, request }) => {
  const id = await createProject(request, `Fit thread ${Date.now()}`);
  const created = await request.post("/api/threads", {
    data: { project_id: id, agent_id: "orchestrator", message: "Write the summary." },
  });
  expect(created.ok()).toBe(true);
  const { threadId } = (await created.json()) as { threadId: string };
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(`/threads/${threadId}`);
    await expect(page.getByRole("tree", { name: "Threads" })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `page scrolls sideways at ${viewport.width}`).toBeLessThanOrEqual(0);
    await expectInViewport(page, page.getByRole("banner"), "header");
    const terminate = page.getByRole("button", { name: "Terminate" });
    if (await terminate.isVisible()) {
      await terminate.click();
      const confirm = page.getByRole("button", { name: "Confirm terminate" });
      await expectInViewport(page, confirm, "terminate confirmation");
    }
  }
});

test("home, studio and thread pages have no accessibility violations (axe, every impact)", async ({
  page,
  request,
}) => {
  // axe-core takes tens of seconds per page on a busy 2-core machine.
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await createProject(request, `Axe ${Date.now()}`);
  await page.goto("/");
  await expect(page.getByRole("link", { name: `Axe`, exact: false }).first()).toBeVisible();
  await expectNoAxeViolations(page, "home");

  await page.goto(`/projects/${id}/studio`);
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await expectNoAxeViolations(page, "studio");

  const created = await request.post("/api/threads", {
    data: { project_id: id, agent_id: "orchestrator", message: "Go." },
  });
  const { threadId } = (await created.json()) as { threadId: string };
  await page.goto(`/threads/${threadId}`);
  await expect(page.getByRole("tree", { name: "Threads" })).toBeVisible();
  await expectNoAxeViolations(page, "thread");
});
