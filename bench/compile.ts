// Benchmark 7, studio compile: the canvas compiles on every change (lib/graph compileGraph, a pure
// function the browser runs, together with the edges it draws), so a 300-node graph must compile in
// ≤ 20 ms. The graph is 60 teams of an ai_human lead delegating to a dual_ai worker subagent
// (2 agents, 2 prompts, 1 tool each) sharing one model: 301 nodes, laid out by decompileBundle.
import { compileGraph, decompileBundle, deriveEdges } from "@/lib/graph";
import { studioBundle } from "../test/support/bench-bundles";
import { monotonicMs } from "../test/support/clock";
import { printTable, SUMMARY_HEADER, section, summaryCells } from "./format";
import { type Summary, summarize } from "./stats";

const TEAMS = 60; // 5 nodes a team (2 agents, 2 prompts, 1 tool) + 1 shared model
const WARM_UP = 20;
const REPEATS = 200;

export interface CompileResult {
  nodes: number;
  edges: number;
  compile: Summary;
  diagnostics: number;
}

export function runCompile(): CompileResult {
  section("7. Studio compile: a 300-node graph, compiled on every change");
  const graph = decompileBundle(studioBundle(TEAMS));
  // What the studio does on every change: compile (validate, pin diagnostics) and derive the edges.
  const compileOnce = () => {
    const result = compileGraph(graph);
    return { diagnostics: result.diagnostics.length, edges: deriveEdges(graph).length };
  };
  for (let index = 0; index < WARM_UP; index += 1) compileOnce();
  const samples: number[] = [];
  let last = { diagnostics: 0, edges: 0 };
  for (let index = 0; index < REPEATS; index += 1) {
    const started = monotonicMs();
    last = compileOnce();
    samples.push(monotonicMs() - started);
  }
  const compile = summarize(samples);
  const result = { nodes: graph.nodes.length, edges: last.edges, compile, diagnostics: last.diagnostics };
  printTable(
    `7. compileGraph + deriveEdges on ${result.nodes} nodes and ${result.edges} edges (${REPEATS} runs after ${WARM_UP} warm-up runs; ${result.diagnostics} diagnostics)`,
    [...SUMMARY_HEADER],
    [summaryCells(compile)],
  );
  return result;
}
