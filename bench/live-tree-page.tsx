// The browser side of the live-tree UI benchmark (bench/live-tree-ui.ts), bundled with esbuild: the
// thread page's tree and timeline (the real components) over a synthetic 1,000-thread tree, fed SSE
// frames through the same reducer and per-animation-frame batching as useLiveThread. The runner
// drives it through `window.liveTreeBench`.
import { useEffect, useReducer } from "react";
import { createRoot } from "react-dom/client";
import { LiveTree } from "@/components/threads/LiveTree";
import { ThreadTimeline } from "@/components/threads/ThreadTimeline";
import { useTreeExpansion } from "@/components/threads/useTreeExpansion";
import { applySseFrame, initialLiveState, type LiveState, type SseFrame } from "@/lib/live";
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
  applied: number;
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

type Action = { frames: readonly SseFrame[] };
function reducer(state: LiveState, action: Action): LiveState {
  let next = state;
  for (const frame of action.frames) next = applySseFrame(next, frame);
  return next;
}

let deliver: (frames: SseFrame[]) => void = () => {};

function App() {
  const [state, dispatch] = useReducer(reducer, ROOT, initialLiveState);
  const { expansion, setExpanded } = useTreeExpansion();
  const [selectedId, select] = useReducer((_: string, id: string) => id, ROOT);
  useEffect(() => {
    // useLiveThread's batching: frames wait for the next animation frame (at most 250 ms).
    let pending: SseFrame[] = [];
    let frameRequest = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      cancelAnimationFrame(frameRequest);
      clearTimeout(timer);
      timer = undefined;
      const frames = pending;
      pending = [];
      window.liveTreeBench.applied += frames.length;
      if (frames.length > 0) dispatch({ frames });
    };
    deliver = (frames) => {
      pending.push(...frames);
      window.liveTreeBench.queued += frames.length;
      if (timer !== undefined) return;
      frameRequest = requestAnimationFrame(flush);
      timer = setTimeout(flush, 250);
    };
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
  applied: 0,
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
