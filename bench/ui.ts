// Benchmark 8, UI (issue 6): the live thread page of a 1,000-thread tree in Chromium while the tree
// receives 100 events/s. The tree is the subagents benchmark's (1 → 27 → 972, run to completion by
// the real runtime), its 999 subagents are then marked running, and a driver reports a subagent
// status 100 times a second through the runtime's own `setStatus` path (registry link status + one
// `registry` event each, committed and NOTIFYed like any other). The production build is served by
// `next start` on the benchmark's cluster. Measured in the page: a Chromium performance trace
// (longest RunTask on CrRendererMain) and event-to-screen latency — each status carries the instant
// the driver issued it; the page records when the SSE frame arrives, when the DOM first shows it
// (MutationObserver) and the next animation frame (the frame that paints it).
import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { openDatabase } from "@/lib/db/database";
import { appendEvents } from "@/runtime/store/event-log";
import { registryEvent, setLinkStatus } from "@/runtime/store/registry-store";
import { threadEvent } from "@/runtime/store/thread-events";
import { nowMicroseconds, THREAD_COLUMNS, toThreadRow } from "@/runtime/store/thread-row";
import { monotonicMs, sleep } from "../test/support/clock";
import { startTestServer } from "../test/support/server";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import { openBenchRuntime } from "./harness";
import { percentile, type Summary, summarize } from "./stats";
import { buildThreadTree, TREE_THREADS, treeBundle } from "./subagents";

const EVENTS_PER_SECOND = Number(process.env.BENCH_UI_EVENTS_PER_S ?? 100);
const MEASURE_SECONDS = Number(process.env.BENCH_UI_SECONDS ?? 20);
const LONG_TASK_MS = 50;
/** Rows the tree panel shows without scrolling at 1280 × 800 (the root is not a subagent). */
const VISIBLE_SUBAGENTS = 9;
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"];
export const TRACE_CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline"];

export type Latency = Summary & { p95: number };

function latency(samples: number[]): Latency {
  return {
    ...summarize(samples),
    p95: percentile(
      [...samples].sort((left, right) => left - right),
      0.95,
    ),
  };
}

export interface UiResult {
  threads: number;
  eventsPerSecond: number;
  sent: number;
  /** Page load until all 1,000 rows are in the view model (the whole event log replayed). */
  loadMs: number;
  loadLongestTaskMs: number;
  /** Wall time of the longest RunTask (what the target reads), and the CPU it used. */
  longestTaskMs: number;
  longestTaskCpuMs: number;
  /** The most CPU any one task used (wall time minus preemption by other processes). */
  longestTaskByCpuMs: number;
  longTasks: number;
  /** Main-thread wall and CPU time in tasks, as a share of the traced span. */
  mainThreadBusy: number;
  mainThreadCpu: number;
  /** Wall ms / CPU ms of the five longest tasks. */
  topTasks: MainThreadTask[];
  /** Inside the tasks over 50 ms: time by top-level trace event name (ms). */
  inLongTasks: [string, number][];
  /** Issued by the driver → SSE frame handled in the page. */
  /** Issued → the driver's transaction committed (the event exists from here on). */
  toCommit: Latency;
  /** Committed → SSE frame handled in the page (NOTIFY, the SSE route, the network, the page's queue). */
  commitToArrival: Latency;
  /** Committed → the painting frame: event-to-screen from the instant the event exists. */
  commitToFrame: Latency;
  toArrival: Latency;
  /** Issued → the DOM shows it. */
  toDom: Latency;
  /** Issued → the next animation frame after the DOM shows it (the frame that paints it). */
  toFrame: Latency;
  /** SSE frame arrived → DOM shows it (the UI's own share). */
  arrivalToDom: Latency;
  visibleSent: number;
  visibleSeen: number;
}

/**
 * Installed before any page script: wraps fetch's event streams and watches the DOM for `bench:<seq>:`. Plain
 * JavaScript text, because tsx would compile a function with helpers the page does not have.
 */
const PROBE_SCRIPT = `(() => {
  const probe = { arrived: {}, dom: {}, frame: {} };
  window.__benchProbe = probe;
  const pattern = /bench:(\\d+):/g;
  const now = () => performance.timeOrigin + performance.now();
  // The live view reads its event stream with fetch: pass the stream's bytes through a probe that
  // notes when each chunk reaches the page, before the app's reader sees it.
  const nativeFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await nativeFetch(input, init);
    const type = response.headers.get("content-type") || "";
    if (!type.includes("text/event-stream") || !response.body) return response;
    const decoder = new TextDecoder();
    const probed = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        const at = now();
        const text = decoder.decode(chunk, { stream: true });
        if (text.includes("bench:"))
          for (const match of text.matchAll(pattern)) probe.arrived[match[1]] ??= at;
        controller.enqueue(chunk);
      },
    }));
    return new Response(probed, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  new MutationObserver((records) => {
    const at = now();
    const fresh = [];
    const scan = (text) => {
      if (!text || !text.includes("bench:")) return;
      for (const match of text.matchAll(pattern)) {
        if (probe.dom[match[1]] === undefined) {
          probe.dom[match[1]] = at;
          fresh.push(match[1]);
        }
      }
    };
    for (const record of records) {
      if (record.type === "characterData") scan(record.target.textContent);
      else for (const node of record.addedNodes) scan(node.textContent);
    }
    if (fresh.length > 0)
      requestAnimationFrame(() => {
        const painted = now();
        for (const seq of fresh) probe.frame[seq] = painted;
      });
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  /** Thread time: CPU the thread used during the event (wall `dur` minus time it was descheduled). */
  tdur?: number;
  ts?: number;
  args?: { name?: string };
};

export interface MainThreadTask {
  wallMs: number;
  cpuMs: number;
}

/**
 * RunTask durations (ms) on the renderer main thread, the traced span (ms), and where the time of
 * the tasks over 50 ms went: the complete events nested directly in them, by name (ms in total).
 */
export function mainThreadTasks(trace: Buffer): {
  tasks: MainThreadTask[];
  spanMs: number;
  inLongTasks: [string, number][];
} {
  const parsed = JSON.parse(trace.toString("utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mains = new Set(
    events
      .filter(
        (event) => event.ph === "M" && event.name === "thread_name" && event.args?.name === "CrRendererMain",
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const tasks: MainThreadTask[] = [];
  const long: TraceEvent[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  const onMain = events.filter((event) => event.ph === "X" && mains.has(`${event.pid}:${event.tid}`));
  for (const event of onMain) {
    if (event.name !== "RunTask") continue;
    tasks.push({ wallMs: (event.dur ?? 0) / 1000, cpuMs: (event.tdur ?? event.dur ?? 0) / 1000 });
    if ((event.dur ?? 0) > LONG_TASK_MS * 1000) long.push(event);
    first = Math.min(first, event.ts ?? first);
    last = Math.max(last, (event.ts ?? 0) + (event.dur ?? 0));
  }
  const byName = new Map<string, number>();
  for (const task of long) {
    const start = task.ts ?? 0;
    const end = start + (task.dur ?? 0);
    // Direct children only: events inside the task that no other event inside it contains.
    const inside = onMain
      .filter(
        (event) => event !== task && (event.ts ?? 0) >= start && (event.ts ?? 0) + (event.dur ?? 0) <= end,
      )
      .sort((left, right) => (left.ts ?? 0) - (right.ts ?? 0));
    let coveredUntil = start;
    for (const event of inside) {
      if ((event.ts ?? 0) < coveredUntil) continue;
      byName.set(event.name, (byName.get(event.name) ?? 0) + (event.dur ?? 0) / 1000);
      coveredUntil = (event.ts ?? 0) + (event.dur ?? 0);
    }
  }
  const inLongTasks = [...byName.entries()].sort((left, right) => right[1] - left[1]).slice(0, 6);
  return { tasks, spanMs: Math.max(0, last - first) / 1000, inLongTasks };
}

async function readProbe(page: Page) {
  return page.evaluate(
    () =>
      (
        window as unknown as {
          __benchProbe: {
            arrived: Record<string, number>;
            dom: Record<string, number>;
            frame: Record<string, number>;
          };
        }
      ).__benchProbe,
  );
}

async function treeRowCount(page: Page): Promise<number> {
  return Number((await page.getByRole("tree", { name: "Threads" }).getAttribute("data-rows")) ?? 0);
}

export async function runUi(cluster: Cluster): Promise<UiResult> {
  section("8. UI: the live page of a 1,000-thread tree receiving 100 events/s");
  const bench = await openBenchRuntime(cluster, {
    database: "bench_ui",
    bundle: treeBundle(),
    concurrency: 32,
    maxConnections: 20,
  });
  let rootId: string;
  try {
    await bench.runtime.scheduler.start();
    rootId = await buildThreadTree(bench);
  } finally {
    await bench.close();
  }
  const url = cluster.urlFor("bench_ui");
  const database = await openDatabase({ kind: "postgres", url }, { maxConnections: 4 });
  let browser: Browser | undefined;
  const server = await startTestServer({ DATABASE_URL: url, TANDEM_CONCURRENCY: "4" });
  try {
    // Every subagent is running (one thread event each, part of the log the page replays on load).
    await database.sql.transaction(async (tx) => {
      const rows = await tx.query<Record<string, unknown>>(
        `UPDATE threads SET status = 'running', updated_at = $2 WHERE root_id = $1 AND parent_id IS NOT NULL
         RETURNING ${THREAD_COLUMNS}`,
        [rootId, nowMicroseconds()],
      );
      await appendEvents(
        tx,
        rows.map((row) => threadEvent(toThreadRow(row))),
      );
    });
    // The subagents in tree order: (created_at, id) under each parent, depth first, as the page lists them.
    const threads = await database.sql.query<{ id: string; parent_id: string | null }>(
      "SELECT id, parent_id FROM threads WHERE root_id = $1 ORDER BY created_at, id",
      [rootId],
    );
    const children = new Map<string, string[]>();
    for (const thread of threads) {
      if (!thread.parent_id) continue;
      children.set(thread.parent_id, [...(children.get(thread.parent_id) ?? []), thread.id]);
    }
    const ordered: { id: string; parentId: string }[] = [];
    const walk = (parentId: string) => {
      for (const id of children.get(parentId) ?? []) {
        ordered.push({ id, parentId });
        walk(id);
      }
    };
    walk(rootId);
    const visible = ordered.slice(0, VISIBLE_SUBAGENTS);
    const elsewhere = ordered.slice(VISIBLE_SUBAGENTS);

    const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
    if (!fs.existsSync(executablePath))
      throw new Error(`No Chromium at ${executablePath} (set CHROMIUM_PATH).`);
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ content: PROBE_SCRIPT });

    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const loadStarted = monotonicMs();
    await page.goto(`${server.baseUrl}/threads/${rootId}`);
    const deadline = Date.now() + 120_000;
    while ((await treeRowCount(page)) < TREE_THREADS) {
      if (Date.now() > deadline) throw new Error(`The page never listed ${TREE_THREADS} threads`);
      await sleep(50);
    }
    const loadMs = monotonicMs() - loadStarted;
    const loadTrace = mainThreadTasks(await browser.stopTracing());
    await sleep(2_000);

    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const sentAt = new Map<number, number>();
    const committedAt = new Map<number, number>();
    const visibleSeqs = new Set<number>();
    const intervalMs = 1000 / EVENTS_PER_SECOND;
    const total = Math.round(EVENTS_PER_SECOND * MEASURE_SECONDS);
    const inFlight: Promise<void>[] = [];
    const started = monotonicMs();
    for (let seq = 0; seq < total; seq += 1) {
      const due = started + seq * intervalMs;
      const wait = due - monotonicMs();
      if (wait > 1) await sleep(wait);
      // Every other status goes to a row on screen; the rest anywhere else in the tree.
      const onScreen = seq % 2 === 0;
      const target = onScreen
        ? visible[(seq / 2) % visible.length]!
        : elsewhere[Math.floor(Math.random() * elsewhere.length)]!;
      const issued = performance.timeOrigin + performance.now();
      sentAt.set(seq, issued);
      if (onScreen) visibleSeqs.add(seq);
      const status = `bench:${seq}:${issued.toFixed(1)}`;
      inFlight.push(
        database.sql
          .transaction(async (tx) => {
            const now = nowMicroseconds();
            await setLinkStatus(tx, target.id, status, now);
            await appendEvents(tx, [
              await registryEvent(tx, { id: target.parentId, root_id: rootId }, [target.id]),
            ]);
          })
          .then(() => {
            committedAt.set(seq, performance.timeOrigin + performance.now());
          }),
      );
    }
    await Promise.all(inFlight);
    const sentMs = monotonicMs() - started;
    await sleep(1_000);
    const steadyTrace = await browser.stopTracing();
    const steady = mainThreadTasks(steadyTrace);
    const probe = await readProbe(page);

    type Instants = Record<string, number> | Map<number, number>;
    const at = (instants: Instants, seq: number) =>
      instants instanceof Map ? instants.get(seq) : instants[String(seq)];
    const collect = (from: Instants, to: Instants) => {
      const samples: number[] = [];
      for (const seq of visibleSeqs) {
        const start = at(from, seq);
        const end = at(to, seq);
        if (start !== undefined && end !== undefined) samples.push(end - start);
      }
      return latency(samples);
    };
    const sortedTasks = [...steady.tasks].sort((left, right) => right.wallMs - left.wallMs);
    const share = (total: number) => (steady.spanMs > 0 ? total / steady.spanMs : 0);
    const result: UiResult = {
      threads: TREE_THREADS,
      eventsPerSecond: total / (sentMs / 1000),
      sent: total,
      loadMs,
      loadLongestTaskMs: Math.max(0, ...loadTrace.tasks.map((task) => task.wallMs)),
      longestTaskMs: sortedTasks[0]?.wallMs ?? 0,
      longestTaskCpuMs: sortedTasks[0]?.cpuMs ?? 0,
      longestTaskByCpuMs: Math.max(0, ...steady.tasks.map((task) => task.cpuMs)),
      longTasks: sortedTasks.filter((task) => task.wallMs > LONG_TASK_MS).length,
      mainThreadBusy: share(steady.tasks.reduce((sum, task) => sum + task.wallMs, 0)),
      mainThreadCpu: share(steady.tasks.reduce((sum, task) => sum + task.cpuMs, 0)),
      topTasks: sortedTasks.slice(0, 5),
      inLongTasks: steady.inLongTasks,
      toCommit: collect(sentAt, committedAt),
      commitToArrival: collect(committedAt, probe.arrived),
      commitToFrame: collect(committedAt, probe.frame),
      toArrival: collect(sentAt, probe.arrived),
      toDom: collect(sentAt, probe.dom),
      toFrame: collect(sentAt, probe.frame),
      arrivalToDom: collect(probe.arrived, probe.dom),
      visibleSent: visibleSeqs.size,
      visibleSeen: [...visibleSeqs].filter((seq) => probe.dom[String(seq)] !== undefined).length,
    };
    const artifacts = path.resolve(import.meta.dirname, "../test-results");
    fs.mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, "bench-ui.png") });
    // Open in Chrome DevTools (Performance → Load profile) to see the tasks.
    fs.writeFileSync(path.join(artifacts, "bench-ui-trace.json"), steadyTrace);
    printUi(result);
    return result;
  } finally {
    await browser?.close();
    await server.stop();
    await database.close();
  }
}

export function printUi(result: UiResult): void {
  printTable(
    `8. Live page of a ${result.threads}-thread tree, ${result.eventsPerSecond.toFixed(1)} events/s for ${result.sent} events (half on visible rows)`,
    ["measure", "value", "target"],
    [
      ["initial load: page open → 1,000 rows (whole log replayed)", `${result.loadMs.toFixed(0)} ms`, "—"],
      ["initial load: longest main-thread task", `${result.loadLongestTaskMs.toFixed(1)} ms`, "—"],
      [
        "steady: longest main-thread task (RunTask, CrRendererMain), wall / its CPU",
        `${result.longestTaskMs.toFixed(1)} / ${result.longestTaskCpuMs.toFixed(1)} ms`,
        `≤ ${LONG_TASK_MS} ms`,
      ],
      ["steady: most CPU used by one task", `${result.longestTaskByCpuMs.toFixed(1)} ms`, "—"],
      [`steady: tasks over ${LONG_TASK_MS} ms`, result.longTasks, "0"],
      [
        "steady: five longest tasks, wall/CPU ms",
        result.topTasks.map((task) => `${task.wallMs.toFixed(1)}/${task.cpuMs.toFixed(1)}`).join(", "),
        "—",
      ],
      [
        "steady: main thread in tasks, wall / CPU",
        `${(result.mainThreadBusy * 100).toFixed(0)} % / ${(result.mainThreadCpu * 100).toFixed(0)} %`,
        "—",
      ],
      [
        `steady: inside tasks over ${LONG_TASK_MS} ms`,
        result.inLongTasks.map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join(", ") || "—",
        "—",
      ],
      ["visible statuses shown / sent", `${result.visibleSeen} / ${result.visibleSent}`, "all"],
    ],
  );
  printTable(
    "8. Event-to-screen latency of the visible rows' statuses (issued by the driver → …)",
    ["measure", "n", "p50 ms", "p95 ms", "p99 ms", "max ms"],
    [
      ["… committed (status + event, fsync)", result.toCommit],
      ["… SSE frame handled in the page", result.toArrival],
      ["… DOM shows it", result.toDom],
      ["… next animation frame (painted)", result.toFrame],
      ["committed → SSE frame handled (server, network, page queue)", result.commitToArrival],
      ["SSE frame → DOM (the UI's share)", result.arrivalToDom],
      ["committed → next animation frame (painted)", result.commitToFrame],
    ].map(([label, summary]) => {
      const value = summary as Latency;
      return [label as string, value.count, value.p50, value.p95, value.p99, value.max];
    }),
  );
}
