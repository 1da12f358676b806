// Benchmark 11, UI (issue 17): a 300-node studio canvas in Chromium, panned and dragged. The graph is
// the compile benchmark's (60 teams, 301 nodes, 480 edges), saved as a project on the bench cluster
// and opened in the studio of the production build (`next start`, 1280 × 800). Three gestures with
// real pointer events, one move per animation frame: pan the canvas back and forth, drag one node
// around, and drag a box of selected nodes; then, zoomed all the way out (0.2, where the cards are
// drawn as coloured blocks and many more are in the DOM), pan and drag one node. Measured per gesture: the main thread's tasks in a
// Chromium trace (the longest RunTask on CrRendererMain, wall and CPU; tasks over 50 ms), the page's
// own PerformanceObserver 'longtask' entries, and the frames painted.
// BENCH_CANVAS_TRACES=<folder> keeps each gesture's Chromium trace there; BENCH_CANVAS_PROFILE=<folder>
// also writes each gesture's V8 CPU profile of the page (<gesture>.cpuprofile, for Chrome DevTools;
// build with `next build --no-mangling` to read function names). BENCH_CANVAS_CSS=<css> adds a style
// sheet before the zoomed-out gestures (to try what a CSS change would save without a rebuild).
import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { decompileBundle } from "@/lib/graph";
import { studioBundle } from "../test/support/bench-bundles";
import { startTestServer } from "../test/support/server";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import { TEMPLATE_DATABASE } from "./harness";
import { CHROMIUM_ARGS, type MainThreadTask, mainThreadTasks, TRACE_CATEGORIES } from "./ui";

const TEAMS = 60;
const LONG_TASK_MS = 50;
/** Pointer moves per gesture, one per animation frame (about 2 s at 60 frames/s). */
const MOVES = Number(process.env.BENCH_CANVAS_MOVES ?? 120);

export interface GestureResult {
  name: string;
  moves: number;
  durationMs: number;
  framesPerSecond: number;
  longestTaskMs: number;
  longestTaskCpuMs: number;
  longestTaskByCpuMs: number;
  longTasks: number;
  /** PerformanceObserver 'longtask' entries (the page's own view: tasks over 50 ms). */
  observedLongTasks: number;
  observedLongestMs: number;
  topTasks: MainThreadTask[];
  /** Main-thread CPU (ms) by kind of work over the whole gesture: script, style, layout, paint, GC. */
  work: [string, number][];
}

export interface CanvasResult {
  nodes: number;
  renderedNodes: number;
  loadMs: number;
  gestures: GestureResult[];
}

/** Renderer main-thread trace events by the kind of work they are (they do not nest in one another). */
const WORK_KINDS: Record<string, string> = {
  FunctionCall: "script",
  EvaluateScript: "script",
  TimerFire: "script",
  FireAnimationFrame: "script",
  EventDispatch: "script",
  UpdateLayoutTree: "style",
  Layout: "layout",
  PrePaint: "paint",
  Paint: "paint",
  Layerize: "paint",
  MinorGC: "GC",
  MajorGC: "GC",
};

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
};

/** CPU ms on the renderer main thread per kind of work (outermost event of each kind only). */
function workByKind(trace: Buffer): [string, number][] {
  const parsed = JSON.parse(trace.toString("utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mains = new Set(
    events
      .filter(
        (event) => event.ph === "M" && event.name === "thread_name" && event.args?.name === "CrRendererMain",
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const totals = new Map<string, number>();
  for (const event of events) {
    const kind = WORK_KINDS[event.name];
    if (!kind || event.ph !== "X" || !mains.has(`${event.pid}:${event.tid}`)) continue;
    totals.set(kind, (totals.get(kind) ?? 0) + (event.tdur ?? event.dur ?? 0) / 1000);
  }
  return [...totals.entries()].sort((left, right) => right[1] - left[1]);
}

/** Installed before any page script: collects 'longtask' entries and counts animation frames. */
const PROBE_SCRIPT = `(() => {
  const probe = { longTasks: [], frames: 0 };
  window.__canvasProbe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
  const tick = () => { probe.frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();`;

type Probe = { longTasks: number[]; frames: number };

async function readProbe(page: Page): Promise<Probe> {
  return page.evaluate(() => {
    const probe = (window as unknown as { __canvasProbe: Probe }).__canvasProbe;
    return { longTasks: [...probe.longTasks], frames: probe.frames };
  });
}

async function resetProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = (window as unknown as { __canvasProbe: Probe }).__canvasProbe;
    probe.longTasks.length = 0;
    probe.frames = 0;
  });
}

/** Waits for the page's next animation frame, so each pointer move lands in its own frame. */
const nextFrame = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));

/** Presses at `from` and moves along `path(step)` one frame at a time, then releases. */
async function gesture(
  page: Page,
  from: { x: number; y: number },
  path: (step: number) => { x: number; y: number },
) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let step = 1; step <= MOVES; step += 1) {
    const at = path(step);
    await page.mouse.move(at.x, at.y);
    await nextFrame(page);
  }
  await page.mouse.up();
}

async function measure(
  browser: Browser,
  page: Page,
  name: string,
  run: () => Promise<void>,
): Promise<GestureResult> {
  await resetProbe(page);
  const profileFolder = process.env.BENCH_CANVAS_PROFILE;
  const cdp = profileFolder ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
  }
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const started = performance.now();
  await run();
  await nextFrame(page);
  const durationMs = performance.now() - started;
  const raw = await browser.stopTracing();
  const traceFolder = profileFolder ?? process.env.BENCH_CANVAS_TRACES;
  if (traceFolder) {
    fs.mkdirSync(traceFolder, { recursive: true });
    const file = path.join(traceFolder, name.replace(/[^a-z0-9]+/gi, "-"));
    fs.writeFileSync(`${file}.trace.json`, raw);
    if (cdp) {
      const { profile } = await cdp.send("Profiler.stop");
      fs.writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
      await cdp.detach();
    }
  }
  const trace = mainThreadTasks(raw);
  const probe = await readProbe(page);
  const sorted = [...trace.tasks].sort((left, right) => right.wallMs - left.wallMs);
  return {
    name,
    moves: MOVES,
    durationMs,
    framesPerSecond: probe.frames / (durationMs / 1000),
    longestTaskMs: sorted[0]?.wallMs ?? 0,
    longestTaskCpuMs: sorted[0]?.cpuMs ?? 0,
    longestTaskByCpuMs: Math.max(0, ...trace.tasks.map((task) => task.cpuMs)),
    longTasks: sorted.filter((task) => task.wallMs > LONG_TASK_MS).length,
    observedLongTasks: probe.longTasks.length,
    observedLongestMs: Math.max(0, ...probe.longTasks),
    topTasks: sorted.slice(0, 5),
    work: workByKind(raw),
  };
}

/** The box (screen px) and id of the card whose middle is nearest `point`; null with no card. */
function nearestCard(
  page: Page,
  point: { x: number; y: number },
): Promise<{ id: string; x: number; y: number; width: number; height: number } | null> {
  return page.evaluate(({ x, y }) => {
    let best: { id: string; x: number; y: number; width: number; height: number } | null = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const element of document.querySelectorAll(".react-flow__node")) {
      const box = element.getBoundingClientRect();
      const distance = Math.hypot(box.x + box.width / 2 - x, box.y + box.height / 2 - y);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = {
          id: element.getAttribute("data-id") ?? "",
          x: box.x,
          y: box.y,
          width: box.width,
          height: box.height,
        };
      }
    }
    return best;
  }, point);
}

export async function runCanvas(cluster: Cluster): Promise<CanvasResult> {
  section("11. UI: a 300-node studio canvas, panned and dragged");
  await cluster.createDatabase("bench_canvas", TEMPLATE_DATABASE);
  const server = await startTestServer({ DATABASE_URL: cluster.urlFor("bench_canvas") });
  let browser: Browser | undefined;
  try {
    const graph = decompileBundle(studioBundle(TEAMS));
    const created = await fetch(`${server.baseUrl}/api/projects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "300-node canvas" }),
    });
    if (created.status !== 201) throw new Error(`Creating the project failed: ${created.status}`);
    const { id } = (await created.json()) as { id: string };
    const saved = await fetch(`${server.baseUrl}/api/projects/${id}/graph`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ graph }),
    });
    if (!saved.ok) throw new Error(`Saving the 300-node graph failed: ${saved.status} ${await saved.text()}`);

    const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
    if (!fs.existsSync(executablePath))
      throw new Error(`No Chromium at ${executablePath} (set CHROMIUM_PATH).`);
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ content: PROBE_SCRIPT });
    const loadStarted = performance.now();
    await page.goto(`${server.baseUrl}/projects/${id}/studio`);
    await page.locator(".react-flow__node").first().waitFor();
    const loadMs = performance.now() - loadStarted;
    await page.waitForTimeout(2_000);
    const renderedNodes = await page.locator(".react-flow__node").count();

    const pane = await page.locator(".react-flow__pane").boundingBox();
    if (!pane) throw new Error("The canvas is not visible");
    const centre = { x: pane.x + pane.width / 2, y: pane.y + pane.height / 2 };
    const gestures: GestureResult[] = [];

    // Pan: press on empty canvas (the pane, under the nodes) and sweep left and right.
    const emptySpotFrom = (area: { x: number; y: number; width: number; height: number }) =>
      page.evaluate(({ x, y, width, height }) => {
        for (let dy = 10; dy < height; dy += 20)
          for (let dx = 10; dx < width; dx += 20) {
            const target = document.elementFromPoint(x + dx, y + dy);
            if (target?.classList.contains("react-flow__pane")) return { x: x + dx, y: y + dy };
          }
        return null;
      }, area);
    const emptySpot = await emptySpotFrom(pane);
    if (!emptySpot) throw new Error("No empty spot on the canvas to pan from");
    gestures.push(
      await measure(browser, page, "pan the canvas", () =>
        gesture(page, emptySpot, (step) => ({
          x: emptySpot.x + Math.sin((step / MOVES) * Math.PI * 2) * 300,
          y: emptySpot.y + (step / MOVES) * 100,
        })),
      ),
    );

    // Drag one node: the card nearest the middle of the view, by its header, in a loop around where
    // it was (a card off screen would not move at all).
    const nodeBox = await nearestCard(page, centre);
    if (!nodeBox) throw new Error("No node to drag");
    const grip = { x: nodeBox.x + 20, y: nodeBox.y + 8 };
    // The grip must move the card (a gesture that moves nothing measures nothing): nudge it and back.
    const card = page.locator(`.react-flow__node[data-id="${nodeBox.id}"]`);
    await page.mouse.move(grip.x, grip.y);
    await page.mouse.down();
    await page.mouse.move(grip.x + 30, grip.y, { steps: 3 });
    const nudged = await card.boundingBox();
    await page.mouse.move(grip.x, grip.y, { steps: 3 });
    await page.mouse.up();
    if (!nudged || Math.abs(nudged.x - nodeBox.x) < 10)
      throw new Error(`Dragging ${nodeBox.id} did not move it`);
    gestures.push(
      await measure(browser, page, "drag one node", () =>
        gesture(page, grip, (step) => ({
          x: grip.x + Math.sin((step / MOVES) * Math.PI * 2) * 200,
          y: grip.y + (1 - Math.cos((step / MOVES) * Math.PI * 2)) * 100,
        })),
      ),
    );

    // The same card picked up while unselected: the press selects it (the inspector opens, the code
    // pane follows it once the pointer is released), then it is dragged and dropped; the measure
    // includes a settle after the drop.
    await page.mouse.click(emptySpot.x, emptySpot.y);
    await page.waitForTimeout(500);
    gestures.push(
      await measure(browser, page, "pick up an unselected node and drag it", async () => {
        await gesture(page, grip, (step) => ({
          x: grip.x + Math.sin((step / MOVES) * Math.PI * 2) * 200,
          y: grip.y + (1 - Math.cos((step / MOVES) * Math.PI * 2)) * 100,
        }));
        await page.waitForTimeout(400);
      }),
    );

    // Drag a selection: a box drawn with Shift around the middle of the view (from empty canvas, so
    // the press does not grab a node), then dragged.
    const boxStart =
      (await emptySpotFrom({ x: centre.x - 250, y: centre.y - 150, width: 200, height: 150 })) ?? emptySpot;
    await page.keyboard.down("Shift");
    await page.mouse.move(boxStart.x, boxStart.y);
    await page.mouse.down();
    await page.mouse.move(boxStart.x + 500, boxStart.y + 300, { steps: 10 });
    await page.mouse.up();
    await page.keyboard.up("Shift");
    const selected = await page.locator(".react-flow__node.selected").count();
    const first = page.locator(".react-flow__node.selected").first();
    const firstBox = await first.boundingBox();
    if (selected > 1 && firstBox) {
      const start = { x: firstBox.x + 20, y: firstBox.y + 8 };
      gestures.push(
        await measure(browser, page, `drag ${selected} selected nodes`, () =>
          gesture(page, start, (step) => ({
            x: start.x + Math.sin((step / MOVES) * Math.PI * 2) * 150,
            y: start.y + (1 - Math.cos((step / MOVES) * Math.PI * 2)) * 80,
          })),
        ),
      );
    }

    // Zoomed all the way out (the canvas's minimum zoom, 0.2): most of the graph is in view, so culling
    // no longer keeps the DOM small. Pan, then drag one card. Clicking empty canvas first clears the
    // selection.
    await page.mouse.click(emptySpot.x, emptySpot.y);
    if (process.env.BENCH_CANVAS_CSS) await page.addStyleTag({ content: process.env.BENCH_CANVAS_CSS });
    for (let turn = 0; turn < 20; turn += 1) {
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(800);
    const zoomedOutNodes = await page.locator(".react-flow__node").count();
    const zoomedOutSpot = await emptySpotFrom(pane);
    if (!zoomedOutSpot) throw new Error("No empty spot on the zoomed-out canvas to pan from");
    gestures.push(
      await measure(browser, page, `pan at the minimum zoom (${zoomedOutNodes} nodes in the DOM)`, () =>
        gesture(page, zoomedOutSpot, (step) => ({
          x: zoomedOutSpot.x + Math.sin((step / MOVES) * Math.PI * 2) * 300,
          y: zoomedOutSpot.y + (step / MOVES) * 100,
        })),
      ),
    );
    const zoomedOutBox = await nearestCard(page, centre);
    // By its top-left corner: at 0.2 a card is about 50 × 20 px.
    const zoomedOutCard = zoomedOutBox && {
      x: zoomedOutBox.x + Math.min(10, zoomedOutBox.width / 4),
      y: zoomedOutBox.y + Math.min(3, zoomedOutBox.height / 4),
    };
    if (zoomedOutCard)
      gestures.push(
        await measure(browser, page, "drag one node at the minimum zoom", () =>
          gesture(page, zoomedOutCard, (step) => ({
            x: zoomedOutCard.x + Math.sin((step / MOVES) * Math.PI * 2) * 200,
            y: zoomedOutCard.y + (1 - Math.cos((step / MOVES) * Math.PI * 2)) * 100,
          })),
        ),
      );

    const artifacts = path.resolve(import.meta.dirname, "../test-results");
    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, "bench-canvas.png") });
    const result: CanvasResult = { nodes: graph.nodes.length, renderedNodes, loadMs, gestures };
    printCanvas(result);
    return result;
  } finally {
    await browser?.close();
    await server.stop();
  }
}

export function printCanvas(result: CanvasResult): void {
  printTable(
    `11. Studio canvas of ${result.nodes} nodes (${result.renderedNodes} in the DOM at the initial view; page open → first node ${result.loadMs.toFixed(0)} ms), ${MOVES} pointer moves per gesture, one per frame`,
    [
      "gesture",
      "longest task wall / CPU",
      "most CPU in a task",
      `tasks > ${LONG_TASK_MS} ms (trace / longtask observer)`,
      "animation frames/s",
      "five longest, wall/CPU ms",
    ],
    result.gestures.map((gesture) => [
      gesture.name,
      `${gesture.longestTaskMs.toFixed(1)} / ${gesture.longestTaskCpuMs.toFixed(1)} ms`,
      `${gesture.longestTaskByCpuMs.toFixed(1)} ms`,
      `${gesture.longTasks} / ${gesture.observedLongTasks}${gesture.observedLongTasks ? ` (max ${gesture.observedLongestMs.toFixed(0)} ms)` : ""}`,
      gesture.framesPerSecond.toFixed(0),
      gesture.topTasks.map((task) => `${task.wallMs.toFixed(1)}/${task.cpuMs.toFixed(1)}`).join(", "),
    ]),
  );
  for (const gesture of result.gestures) {
    console.log(
      `  ${gesture.name}: main-thread CPU by kind: ${gesture.work.map(([kind, ms]) => `${kind} ${ms.toFixed(0)} ms`).join(", ")}`,
    );
  }
}
