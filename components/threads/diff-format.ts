// Text for the diff view's header: a run's figure and the change from run A to run B ("+120 (+12%)").

/** `b - a` signed, with the relative change when `a` is not zero; "±0" when equal. */
export function formatDelta(a: number, b: number, format: (value: number) => string = String): string {
  const delta = b - a;
  if (delta === 0) return "±0";
  const sign = delta > 0 ? "+" : "−";
  const relative = a !== 0 ? ` (${sign}${Math.round((Math.abs(delta) / Math.abs(a)) * 100)}%)` : "";
  return `${sign}${format(Math.abs(delta))}${relative}`;
}

export function formatMilliseconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatUsd(value: number): string {
  if (value === 0) return "$0";
  return value < 0.01 ? `$${value.toFixed(6)}` : `$${value.toFixed(4)}`;
}

/** "child 1", "child 1 › 2" for a child pair's path (counting from 1 for people). */
export function childPathLabel(path: readonly number[]): string {
  return path.length === 0 ? "root" : `child ${path.map((index) => index + 1).join(" › ")}`;
}

/** What each compared field of a message means to a reader (run-diff's `differences`). */
const DIFFERENCE_WORDS: Record<string, string> = {
  role: "who sent it",
  side: "the side that sent it",
  content: "the text",
  name: "the tool it answers",
  tool_calls: "the tool calls",
  tool_status: "whether the tool succeeded",
  attachments: "the attachments",
  silent: "whether it is silent",
};

/** "a, b and c". */
function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * How one step of two runs differs, in plain words: "only run A has this message", or "the messages
 * differ in the text and the tool calls". Empty for a step that is the same in both.
 */
export function describeStepDifference(step: {
  a: unknown;
  b: unknown;
  differences: readonly string[];
}): string {
  if (step.differences.length === 0) return "";
  if (step.a === null || step.b === null) {
    return step.a === null ? "only run B has this message" : "only run A has this message";
  }
  const words = step.differences.map((field) => DIFFERENCE_WORDS[field] ?? field.replaceAll("_", " "));
  return `the messages differ in ${joinWords(words)}`;
}

/**
 * Where and how two runs first differ, as a sentence: "The runs first differ at step 3: the messages
 * differ in the text." (a step in a subagent's conversation names it: "…at step 5, in subagent 1 › 2: …").
 */
export function describeFirstDivergence(step: {
  index: number;
  path: readonly number[];
  a: unknown;
  b: unknown;
  differences: readonly string[];
}): string {
  const where =
    step.path.length === 0 ? "" : `, in subagent ${step.path.map((index) => index + 1).join(" › ")}`;
  return `The runs first differ at step ${step.index + 1}${where}: ${describeStepDifference(step)}.`;
}
