// The browser side of the live-tree UI benchmark (bench/live-tree-ui.ts), bundled with esbuild: the
// thread page's tree and timeline (the real components) over a synthetic 1,000-thread tree, fed SSE
// frames through the same folding as useLiveThread (createFrameFolder: once per animation frame, in
// slices). The runner drives it through `window.liveTreeBench`.
import { useEffect, useReducer, useState } from "react";
import { createRoot } from "react-dom/client";
import { createFrameFolder, type FrameFolder } from "@/components/threads/frame-folder";
import { LiveTree } from "@/components/threads/LiveTree";
import { ThreadTimeline } from "@/components/threads/ThreadTimeline";
import { useTreeExpansion } from "@/components/threads/useTreeExpansion";
import { initialLiveState, type SseFrame } from "@/lib/live";
import {
  EventScript,
  registryEntryWire,
  T0,
  type ThreadWire,
  threadWire,
  uuid,
} from "@/test/support/live-support";

const MIDDLE = 30;
const TOTAL = 1000;
const ROOT = uuid("bench-root");
const STATUSES = ["running", "completed", "idle", "failed", "stopped", "queued"] as const;

interface Bench {
  /** Frames folded so far (all of them once the page has caught up). */
  readonly applied: number;
  queued: number;
  initialFrames(): number;
  /** `count` thread, registry and chunk events, as a stream of them would bring. */
  push(count: number): void;
  rows(): { tree: number; timeline: number };
}

declare global {
  interface Window {
    liveTreeBench: Bench;
  }
}

/** The whole log of a 1 → 30 → 969 tree, as a fresh page replays it. */
function treeScript(): { frames: SseFrame[]; threads: ThreadWire[]; script: EventScript } {
  const script = new EventScript();
  const threads: ThreadWire[] = [];
  const root = threadWire({ id: ROOT, agent_id: "coordinator", status: "running", name: "Quarterly review" });
  threads.push(root);
  script.thread(root);
  const middles: ThreadWire[] = [];
  for (let index = 0; index < MIDDLE; index++) {
    const created = T0 + (index + 1) * 400_000;
    const middle = threadWire({
      id: uuid(`bench-m${index}`),
      parent_id: ROOT,
      root_id: ROOT,
      depth: 1,
      agent_id: "researcher",
      name: `researcher-${index + 1}: region ${index + 1} market analysis`,
      status: "running",
      created_at: created,
      updated_at: created,
    });
    middles.push(middle);
    threads.push(middle);
    script.thread(middle);
  }
  script.registry(
    ROOT,
    middles.map((middle) =>
      registryEntryWire({ reference: middle.id, name: middle.name ?? "", agent: "researcher" }),
    ),
  );
  for (let index = 0; threads.length < TOTAL; index++) {
    const parent = middles[index % MIDDLE]!;
    const created = parent.created_at + 200_000 + index * 37_000;
    const status = STATUSES[index % STATUSES.length]!;
    const leaf = threadWire({
      id: uuid(`bench-l${index}`),
      parent_id: parent.id,
      root_id: ROOT,
      depth: 2,
      agent_id: "fact_checker",
      name: `checker-${index + 1} for ${parent.name}`,
      status,
      stop_reason: status === "stopped" ? "Reached max session turns (40 exchanges)" : null,
      failure: status === "failed" ? "Error: provider answered 429 Too Many Requests" : null,
      created_at: created,
      updated_at: created + 1_000_000 + (index % 17) * 300_000,
      usage: { input_tokens: 1200 + index, output_tokens: 300 + index, cost_usd: 0.0012 },
    });
    threads.push(leaf);
    script.thread(leaf);
  }
  for (const middle of middles) {
    const children = threads.filter((thread) => thread.parent_id === middle.id);
    script.registry(
      middle.id,
      children.map((child) =>
        registryEntryWire({
          reference: child.id,
          name: child.name ?? "",
          agent: "fact_checker",
          resumable: true,
        }),
      ),
    );
  }
  return { frames: [...script.frames], threads, script };
}

const built = treeScript();
let pushSeq = 0;

function burstFrames(count: number): SseFrame[] {
  const frames: SseFrame[] = [];
  const { threads, script } = built;
  const before = script.frames.length;
  for (let index = 0; index < count; index++) {
    const seq = pushSeq++;
    const thread = threads[1 + ((seq * 7919) % (threads.length - 1))]!;
    const kind = seq % 4;
    if (kind === 3) {
      script.chunk(thread.id, uuid(`bench-msg-${thread.id}`), `token ${seq} `);
      continue;
    }
    const status = STATUSES[seq % STATUSES.length]!;
    const next: ThreadWire = {
      ...thread,
      status,
      status_text: status === "running" ? `step ${seq}` : null,
      updated_at: thread.updated_at + 1_000 + seq,
      usage: {
        input_tokens: thread.usage.input_tokens + 10,
        output_tokens: thread.usage.output_tokens + 5,
        cost_usd: thread.usage.cost_usd + 0.0001,
      },
    };
    threads[threads.indexOf(thread)] = next;
    script.thread(next);
  }
  frames.push(...script.frames.slice(before));
  return frames;
}

let folder: FrameFolder | null = null;
const undelivered: SseFrame[] = [];

function deliver(frames: SseFrame[]) {
  window.liveTreeBench.queued += frames.length;
  if (!folder) {
    undelivered.push(...frames);
    return;
  }
  for (const frame of frames) folder.push(frame);
}

function App() {
  const [state, setState] = useState(() => initialLiveState(ROOT));
  const { expansion, setExpanded } = useTreeExpansion();
  const [selectedId, select] = useReducer((_: string, id: string) => id, ROOT);
  useEffect(() => {
    // useLiveThread's folding: frames wait for the next animation frame, then fold in slices.
    const own = createFrameFolder(initialLiveState(ROOT), setState);
    folder = own;
    for (const frame of undelivered.splice(0)) own.push(frame);
    return () => own.dispose();
  }, []);
  return (
    <div style={{ display: "flex", height: "100vh" }}>
      <aside style={{ width: "30rem", flexShrink: 0, borderRight: "1px solid var(--border)" }}>
        <LiveTree
          state={state}
          selectedId={selectedId}
          onSelect={select}
          expansion={expansion}
          onExpandedChange={setExpanded}
        />
      </aside>
      <section style={{ flex: 1, minWidth: 0 }}>
        <ThreadTimeline state={state} selectedId={selectedId} onSelect={select} expansion={expansion} />
      </section>
    </div>
  );
}

window.liveTreeBench = {
  get applied() {
    return this.queued - (folder?.backlog() ?? this.queued);
  },
  queued: 0,
  initialFrames() {
    deliver(built.frames);
    return built.frames.length;
  },
  push(count) {
    deliver(burstFrames(count));
  },
  rows() {
    const count = (selector: string) =>
      Number(document.querySelector(selector)?.getAttribute("data-rows") ?? 0);
    return { tree: count('[role="tree"]'), timeline: count('[aria-label="Timeline of the threads"]') };
  },
};
createRoot(document.getElementById("root")!).render(<App />);
