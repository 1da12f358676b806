import { describe, expect, it } from "vitest";
import {
  bestThroughput,
  type PeerResult,
  type PeerThroughputRun,
  peerComparisons,
  peerFigure,
  ratioText,
  targetWithPeer,
} from "./peer-results";

const summary = (p50: number) => ({ count: 10, p50, p99: p50 * 2, max: p50 * 3, mean: p50 });
const cpu = { wallMs: 1000, nodeCpuMs: 500, postgresCpuMs: 200 };

const throughputRun = (concurrency: number, stepsPerSecond: number): PeerThroughputRun => ({
  concurrency,
  pool: 10,
  steps: 2000,
  stepsPerSecond,
  stepUnderLoad: summary(50),
  cpu,
});

const langGraph: PeerResult = {
  key: "langgraph",
  name: "LangGraph.js + PostgresSaver",
  versions: { "@langchain/langgraph": "1.5.3" },
  persistence: "PostgresSaver",
  step: { steps: 200, step: summary(8), firstQuarter: summary(6), lastQuarter: summary(10), cpu },
  throughput: [throughputRun(16, 150), throughputRun(200, 250), throughputRun(64, 200)],
  fanOuts: [],
  error: null,
};

const deepAgents: PeerResult = {
  key: "deepagents-postgres",
  name: "deepagents + PostgresSaver",
  versions: {},
  persistence: "PostgresSaver",
  step: null,
  throughput: [],
  fanOuts: [
    { children: 50, wallMs: 1200, spawnMs: 800, modelCalls: 102, reports: 50, peakRssMiB: 300, cpu },
    { children: 200, wallMs: 4000, spawnMs: 2500, modelCalls: 402, reports: 200, peakRssMiB: 380, cpu },
  ],
  error: null,
};

const failed: PeerResult = {
  ...langGraph,
  key: "agents-core",
  name: "OpenAI agents-core (no persistence)",
  error: "Cannot find module",
};

describe("ratioText", () => {
  it("says how many times faster Tandem is, for times (lower is better) and rates (higher is better)", () => {
    expect(ratioText(2, 8, "lower")).toBe("Tandem 4.00× faster");
    expect(ratioText(1500, 250, "higher")).toBe("Tandem 6.00× faster");
  });

  it("names the peer when the peer is faster", () => {
    expect(ratioText(4, 2, "lower")).toBe("peer 2.00× faster");
    expect(ratioText(100, 1000, "higher")).toBe("peer 10.0× faster");
  });

  it("says same within half a percent, and n/a for a missing or zero figure", () => {
    expect(ratioText(100, 100.2, "lower")).toBe("same");
    expect(ratioText(Number.NaN, 3, "lower")).toBe("n/a");
    expect(ratioText(0, 3, "higher")).toBe("n/a");
  });
});

describe("bestThroughput", () => {
  it("picks the run with the most steps/s, and null for none", () => {
    expect(bestThroughput(langGraph.throughput)?.concurrency).toBe(200);
    expect(bestThroughput([])).toBeNull();
  });
});

describe("peerComparisons", () => {
  const tandem = {
    stepP50Ms: 2,
    stepsPerSecond: 1500,
    fanOutMs: new Map([
      [50, 600],
      [200, 1000],
      [500, 2000],
    ]),
  };

  it("sets each figure both measured beside each other, with the ratio", () => {
    const rows = peerComparisons(tandem, [langGraph, deepAgents]);
    expect(rows).toEqual([
      {
        figure: "step wall time p50, one thread",
        tandem: "2.00 ms",
        peer: "LangGraph.js + PostgresSaver",
        peerFigure: "8.00 ms",
        ratio: "Tandem 4.00× faster",
      },
      {
        figure: "aggregate steps/s, 200 threads × 10 steps (best setting)",
        tandem: "1,500",
        peer: "LangGraph.js + PostgresSaver",
        peerFigure: "250",
        ratio: "Tandem 6.00× faster",
      },
      {
        figure: "50 children, every report in",
        tandem: "0.60 s",
        peer: "deepagents + PostgresSaver",
        peerFigure: "1.20 s",
        ratio: "Tandem 2.00× faster",
      },
      {
        figure: "200 children, every report in",
        tandem: "1.00 s",
        peer: "deepagents + PostgresSaver",
        peerFigure: "4.00 s",
        ratio: "Tandem 4.00× faster",
      },
    ]);
  });

  it("leaves out figures Tandem did not measure in this run, and peers that failed", () => {
    const rows = peerComparisons(
      { stepP50Ms: null, stepsPerSecond: null, fanOutMs: new Map([[200, 1000]]) },
      [langGraph, deepAgents, failed],
    );
    expect(rows.map((row) => [row.figure, row.peer])).toEqual([
      ["200 children, every report in", "deepagents + PostgresSaver"],
    ]);
  });
});

describe("targetWithPeer and peerFigure", () => {
  it("puts the peer's figure from this run beside the target", () => {
    const figure = peerFigure([langGraph], "langgraph", (peer) => `${peer.step?.step.p50} ms`);
    expect(targetWithPeer("≤ 1.5 ms", figure)).toBe("≤ 1.5 ms (LangGraph.js + PostgresSaver 8 ms, this run)");
    expect(targetWithPeer("", figure)).toBe("LangGraph.js + PostgresSaver 8 ms, this run");
  });

  it("keeps the bare target when the peer did not run, failed or lacks the figure", () => {
    expect(
      targetWithPeer(
        "≤ 1.5 ms",
        peerFigure(null, "langgraph", () => "x"),
      ),
    ).toBe("≤ 1.5 ms");
    expect(peerFigure([failed], "agents-core", () => "x")).toBeNull();
    expect(peerFigure([deepAgents], "deepagents-postgres", () => null)).toBeNull();
  });
});
