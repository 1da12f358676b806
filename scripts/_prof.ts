// Throwaway: profile a selection drag on the 300-node canvas (CDP CPU profile, self time by function).
import { chromium } from "@playwright/test";
import { decompileBundle } from "@/lib/graph";
import { studioBundle } from "../bench/compile";
const base = process.env.BASE ?? "http://127.0.0.1:3195";
const graph = decompileBundle(studioBundle(60));
const created = await fetch(`${base}/api/projects`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "prof" }) });
const { id } = (await created.json()) as { id: string };
await fetch(`${base}/api/projects/${id}/graph`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ graph }) });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(`${base}/projects/${id}/studio`);
await page.locator(".react-flow__node").first().waitFor({ timeout: 120_000 });
await page.waitForTimeout(2000);
const pane = (await page.locator(".react-flow__pane").boundingBox())!;
const centre = { x: pane.x + pane.width / 2, y: pane.y + pane.height / 2 };
if (process.env.PRE) {
  const empty = await page.evaluate(({ x, y, width, height }) => {
    for (let dy = 10; dy < height; dy += 20) for (let dx = 10; dx < width; dx += 20) {
      const t = document.elementFromPoint(x + dx, y + dy);
      if (t?.classList.contains("react-flow__pane")) return { x: x + dx, y: y + dy };
    }
    return null;
  }, pane);
  await page.mouse.move(empty!.x, empty!.y); await page.mouse.down();
  for (let step = 1; step <= 60; step++) await page.mouse.move(empty!.x + Math.sin((step / 60) * Math.PI * 2) * 300, empty!.y + (step / 60) * 100);
  await page.mouse.up();
  const node = page.locator(".react-flow__node").filter({ hasText: "lead_prompt_" }).first();
  const nb = (await node.boundingBox())!;
  await page.mouse.move(nb.x + 20, nb.y + 8); await page.mouse.down();
  for (let step = 1; step <= 60; step++) await page.mouse.move(nb.x + 20 + Math.sin((step / 60) * Math.PI * 2) * 200, nb.y + 8 + (1 - Math.cos((step / 60) * Math.PI * 2)) * 100);
  await page.mouse.up();
  await page.screenshot({ path: "/tmp/prof/after-pre.png" });
}
const start = await page.evaluate(({ x, y }) => {
  for (let dy = 0; dy < 150; dy += 10) for (let dx = 0; dx < 200; dx += 10) {
    const t = document.elementFromPoint(x + dx, y + dy);
    if (t?.classList.contains("react-flow__pane")) return { x: x + dx, y: y + dy };
  }
  return null;
}, { x: centre.x - 250, y: centre.y - 150 });
if (!start) throw new Error("no empty spot");
await page.keyboard.down("Shift");
await page.mouse.move(start.x, start.y);
await page.mouse.down();
await page.mouse.move(start.x + 500, start.y + 300, { steps: 10 });
await page.mouse.up();
await page.keyboard.up("Shift");
const count = await page.locator(".react-flow__node.selected").count();
console.log("selected", count, "start", start);
await page.screenshot({ path: "/tmp/prof/after-box.png" });
if (process.env.ONLY_SELECT) { await browser.close(); process.exit(0); }
const box = process.env.SINGLE
  ? (await page.locator(".react-flow__node").filter({ hasText: "lead_prompt_" }).first().boundingBox())!
  : (await page.locator(".react-flow__node.selected").first().boundingBox())!;
if (process.env.SINGLE) { await page.mouse.click(start.x, start.y); }
const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
await cdp.send("Profiler.start");
const grip = { x: box.x + 20, y: box.y + 8 };
await page.mouse.move(grip.x, grip.y);
await page.mouse.down();
for (let step = 1; step <= 60; step++) {
  await page.mouse.move(grip.x + Math.sin((step / 60) * Math.PI * 2) * 150, grip.y + (1 - Math.cos((step / 60) * Math.PI * 2)) * 80);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}
await page.mouse.up();
console.log("grip box before", JSON.stringify(box), "after", JSON.stringify(await page.locator(".react-flow__node").filter({ hasText: "lead_prompt_" }).first().boundingBox()));
await page.screenshot({ path: "/tmp/prof/after-drag.png" });
const { profile } = await cdp.send("Profiler.stop");
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas ?? [];
(profile.samples ?? []).forEach((id, i) => {
  const n = byId.get(id)!;
  const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
});
// inclusive time by function name
const children = new Map<number, number[]>();
for (const n of profile.nodes) children.set(n.id, n.children ?? []);
const selfById = new Map<number, number>();
(profile.samples ?? []).forEach((id, i) => selfById.set(id, (selfById.get(id) ?? 0) + (dt[i] ?? 0) / 1000));
const total = (id: number): number => (selfById.get(id) ?? 0) + (children.get(id) ?? []).reduce((s, c) => s + total(c), 0);
const incl = new Map<string, number>();
for (const n of profile.nodes) { const k = n.callFrame.functionName || "(anon)"; incl.set(k, Math.max(incl.get(k) ?? 0, 0) + total(n.id)); }
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const chains = new Map<string, number>();
for (const n of profile.nodes) {
  const name = n.callFrame.functionName;
  if (!/^(EdgeWrapper|NodeWrapper|StudioCanvas|EdgeLabels|Inspector|CodePane|ProblemsPanel|NodesSelection|EdgeRenderer|NodeRenderer|StudioWorkspace)/.test(name)) continue;
  const t = total(n.id);
  if (t < 5) continue;
  chains.set(name, (chains.get(name) ?? 0) + t);
}
console.log("COMPONENTS", [...chains].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v.toFixed(0)}`).join(" "));
console.log("SELF top 25");
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(1).padStart(8), k);
console.log("INCLUSIVE top 30 (summed over call sites, may double count recursion)");
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(v.toFixed(1).padStart(8), k);
await browser.close();
