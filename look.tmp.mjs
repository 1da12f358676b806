import { chromium } from "@playwright/test";
const base = process.env.BASE ?? "http://127.0.0.1:3307";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await browser.newContext();
const page = await ctx.newPage(); page.setDefaultTimeout(180000);
const res = await page.request.post(`${base}/api/projects`, { data: { name: "A project with a rather long name that goes on and on and on to test the breadcrumb truncation" } });
const project = await res.json();
for (const [w, h] of [[1280, 800], [1440, 900], [1920, 1080]]) {
  await page.setViewportSize({ width: w, height: h });
  await page.goto(`${base}/projects/${project.id}/studio`);
  await page.getByRole("toolbar", { name: "Studio tools" }).waitFor();
  await page.waitForTimeout(1500);
  await page.getByRole("button", { name: "Templates" }).click();
  await page.getByRole("menuitem").nth(1).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/layout-shots/studio-${w}.png` });
  await page.getByRole("button", { name: "Run" }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/layout-shots/run-${w}.png` });
  await page.keyboard.press("Escape");
  const tb = await page.getByRole("toolbar", { name: "Studio tools" }).evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, h: el.getBoundingClientRect().height }));
  console.log(w, JSON.stringify(tb));
}
await browser.close();
