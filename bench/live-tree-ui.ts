// UI benchmark: the thread page's live tree and timeline (components/threads/LiveTree, ThreadTimeline)
// over a 1,000-thread tree in Chromium, without a server: the real components and reducer are
// bundled with esbuild (bench/live-tree-page.tsx) and styled with the production build's CSS when
// there is one. Phases, each traced (the longest RunTask on CrRendererMain, as in bench/ui.ts):
// the replay of the whole tree's log, a burst of 1,000 events at once, a stream of 100 events/s, and
// scrolling both panes from top to bottom. Target: no main-thread task over 50 ms after the replay.
// Run alone: `npx tsx bench/live-tree-ui.ts`; in `npm run bench` as BENCH_ONLY=livetree.
// LIVE_TREE_TRACES=<folder> keeps each phase's Chromium trace there; LIVE_TREE_PROFILE=<folder> also
// takes a V8 CPU profile of each phase (sampling slows the page) from an unminified bundle.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { build } from "esbuild";
import { sleep } from "../test/support/clock";
import { printTable, section } from "./format";

const LONG_TASK_MS = 50;
const TRACE_CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline"];
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"];
const ROOT_DIR = path.resolve(import.meta.dirname, "..");
const BURST = 1_000;
const STREAM_PER_SECOND = 100;
const STREAM_SECONDS = 5;

export interface PhaseResult {
  phase: string;
  wallMs: number;
  longestTaskMs: number;
  /** The CPU the longest-by-CPU task used: what the page itself costs on a machine others share. */
  longestTaskCpuMs: number;
  longTasks: number;
  longTasksByCpu: number;
  target: boolean;
}

export interface LiveTreeUiResult {
  threads: number;
  css: boolean;
  /** The machine's 1-minute load average when the run ended, against its core count. */
  load: string;
  phases: PhaseResult[];
}

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  /** Thread time: the CPU the thread used during the event (wall minus time it was descheduled). */
  tdur?: number;
  args?: { name?: string };
};

/** RunTask durations on the renderer main thread, wall and CPU (ms). */
function mainThreadTasks(trace: Buffer): { wallMs: number; cpuMs: number }[] {
  const parsed = JSON.parse(trace.toString("utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mains = new Set(
    events
      .filter(
        (event) => event.ph === "M" && event.name === "thread_name" && event.args?.name === "CrRendererMain",
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  return events
    .filter((event) => event.ph === "X" && event.name === "RunTask" && mains.has(`${event.pid}:${event.tid}`))
    .map((event) => ({ wallMs: (event.dur ?? 0) / 1000, cpuMs: (event.tdur ?? event.dur ?? 0) / 1000 }));
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(ROOT_DIR, "bench/live-tree-page.tsx")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    jsx: "automatic",
    // Unminified when profiling, so the profile names the functions.
    minify: !process.env.LIVE_TREE_PROFILE,
    define: { "process.env.NODE_ENV": '"production"' },
    tsconfig: path.join(ROOT_DIR, "tsconfig.json"),
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** The app's CSS from the production build (Tailwind classes and the status colours), if built. */
function productionCss(): string | null {
  const dir = path.join(ROOT_DIR, ".next/static");
  if (!fs.existsSync(dir)) return null;
  const found: string[] = [];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".css")) found.push(full);
    }
  };
  walk(dir);
  return found.length > 0 ? found.map((file) => fs.readFileSync(file, "utf8")).join("\n") : null;
}

async function traced(
  browser: Browser,
  page: Page,
  phase: string,
  target: boolean,
  action: () => Promise<void>,
): Promise<PhaseResult> {
  const profileFolder = process.env.LIVE_TREE_PROFILE;
  const cdp = profileFolder ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
  }
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const started = performance.now();
  await action();
  const wallMs = performance.now() - started;
  const trace = await browser.stopTracing();
  const tasks = mainThreadTasks(trace);
  const traceFolder = profileFolder ?? process.env.LIVE_TREE_TRACES;
  if (traceFolder) {
    fs.mkdirSync(traceFolder, { recursive: true });
    const file = path.join(traceFolder, phase.split(":")[0]!.replace(/[^a-z0-9]+/gi, "-"));
    fs.writeFileSync(`${file}.trace.json`, trace);
    if (cdp) {
      const { profile } = await cdp.send("Profiler.stop");
      fs.writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
      await cdp.detach();
    }
  }
  return {
    phase,
    wallMs,
    longestTaskMs: Math.max(0, ...tasks.map((task) => task.wallMs)),
    longestTaskCpuMs: Math.max(0, ...tasks.map((task) => task.cpuMs)),
    longTasks: tasks.filter((task) => task.wallMs > LONG_TASK_MS).length,
    longTasksByCpu: tasks.filter((task) => task.cpuMs > LONG_TASK_MS).length,
    target,
  };
}

async function caughtUp(page: Page): Promise<void> {
  await page.waitForFunction(() => window.liveTreeBench.applied === window.liveTreeBench.queued, null, {
    timeout: 60_000,
  });
  // Two frames: React's commit and the paint after it.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

export async function runLiveTreeUi(): Promise<LiveTreeUiResult> {
  section("8b. UI: the live tree and timeline of a 1,000-thread tree (components alone, no server)");
  const script = await bundle();
  const css = productionCss();
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(executablePath))
    throw new Error(`No Chromium at ${executablePath} (set CHROMIUM_PATH).`);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.setContent(
      `<!doctype html><html><head><style>${css ?? ""}</style></head><body><div id="root"></div></body></html>`,
    );
    await page.addScriptTag({ content: script });
    await page.waitForFunction(() => window.liveTreeBench !== undefined);
    const phases: PhaseResult[] = [];
    let threads = 0;
    phases.push(
      await traced(browser, page, "replay of the whole log (1,000 threads, one batch)", false, async () => {
        await page.evaluate(() => window.liveTreeBench.initialFrames());
        await caughtUp(page);
        const rows = await page.evaluate(() => window.liveTreeBench.rows());
        threads = rows.tree;
        if (rows.tree !== 1000 || rows.timeline !== 1000)
          throw new Error(`Expected 1,000 rows in the tree and the timeline, got ${JSON.stringify(rows)}`);
      }),
    );
    await sleep(1_000);
    phases.push(
      await traced(browser, page, `burst: ${BURST.toLocaleString("en")} events at once`, true, async () => {
        await page.evaluate((count) => window.liveTreeBench.push(count), BURST);
        await caughtUp(page);
        await sleep(300);
      }),
    );
    phases.push(
      await traced(
        browser,
        page,
        `stream: ${STREAM_PER_SECOND} events/s for ${STREAM_SECONDS} s (clock ticking)`,
        true,
        async () => {
          await page.evaluate(
            ({ perSecond, seconds }) =>
              new Promise<void>((resolve) => {
                let sent = 0;
                const timer = setInterval(() => {
                  window.liveTreeBench.push(perSecond / 10);
                  sent += perSecond / 10;
                  if (sent >= perSecond * seconds) {
                    clearInterval(timer);
                    resolve();
                  }
                }, 100);
              }),
            { perSecond: STREAM_PER_SECOND, seconds: STREAM_SECONDS },
          );
          await caughtUp(page);
        },
      ),
    );
    phases.push(
      await traced(browser, page, "scroll tree and timeline top → bottom, 40 steps", true, async () => {
        for (let step = 1; step <= 40; step++) {
          await page.evaluate((fraction) => {
            for (const element of document.querySelectorAll<HTMLElement>(".overflow-y-auto"))
              element.scrollTop = (element.scrollHeight - element.clientHeight) * fraction;
          }, step / 40);
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
        }
      }),
    );
    const artifacts = path.join(ROOT_DIR, "test-results");
    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, "bench-live-tree.png") });
    const load = `${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
    const result = { threads, css: css !== null, load, phases };
    printLiveTreeUi(result);
    return result;
  } finally {
    await browser.close();
  }
}

export function printLiveTreeUi(result: LiveTreeUiResult): void {
  printTable(
    `8b. Live tree + timeline, ${result.threads} threads, load average ${result.load}${result.css ? "" : " (no production CSS: run `npm run build` for the real styles)"}`,
    ["phase", "wall ms", "longest task wall / CPU ms", `tasks > ${LONG_TASK_MS} ms wall / CPU`, "target"],
    result.phases.map((phase) => [
      phase.phase,
      phase.wallMs.toFixed(0),
      `${phase.longestTaskMs.toFixed(1)} / ${phase.longestTaskCpuMs.toFixed(1)}`,
      `${phase.longTasks} / ${phase.longTasksByCpu}`,
      phase.target ? `≤ ${LONG_TASK_MS} ms, 0` : "—",
    ]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runLiveTreeUi().then(
    (result) => {
      const missed = result.phases.filter((phase) => phase.target && phase.longTasks > 0);
      if (missed.length > 0) console.log(`Over the target: ${missed.map((phase) => phase.phase).join("; ")}`);
      process.exit(missed.length > 0 ? 1 : 0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
