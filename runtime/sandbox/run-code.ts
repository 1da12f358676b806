// state.runCode (spec Threads, code execution): an ES module of JavaScript or TypeScript run in a
// fresh QuickJS runtime (the quickjs-emscripten WebAssembly build) per call, inside a worker thread
// (sandbox-worker.mjs) that is terminated at the time limit, with no ambient capability: no
// process, require, fetch, timers, filesystem or network; only the bridged `imports` and
// `globals`. Values cross the boundary as copies of plain data (JSON values); functions stay on
// the host and are called with copied arguments when the sandbox calls them. Time and memory are
// limited; console output is captured. docs/runtime.md ("runCode") explains the design.
import type { RunCodeOptions, RunCodeResult } from "../extensions/define";
import { DROPPED_SLOT, type FromWorker, type Reply, type ToWorker, type Wire } from "./protocol";
import { mapPositions } from "./source-map";
import { type PreparedModule, prepareModule } from "./strip-types";
import { acquireWorker, releaseWorker, type SandboxWorker } from "./worker-pool";

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MEMORY_MB = 64;
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_MEMORY_MB = 1_024;
/** Log lines kept per call, and their total length; what is over is dropped and counted. */
export const MAX_LOG_LINES = 1_000;
export const MAX_LOG_CHARS = 1_000_000;

export interface SandboxHost {
  /** A user stop of the run: the sandbox is ended at once, wherever it is. Answers "error". */
  signal?: AbortSignal;
}

type HostFunction = (...args: unknown[]) => unknown;

/** Runs `source` in a fresh sandbox; bad options throw a TypeError, anything the code does is a result. */
export async function runSandboxedCode(
  source: string,
  options: RunCodeOptions = {},
  host: SandboxHost = {},
): Promise<RunCodeResult> {
  const limits = checkOptions(source, options);
  // The limit covers the whole call: preparing the module, waiting for a worker, running it.
  const deadline = Date.now() + limits.timeoutMs;
  const call = new HostCall(limits);
  let request: ToWorker;
  try {
    request = call.request(await prepareModule(source), options);
  } catch (error) {
    return { status: "error", error: messageOf(error).message, logs: [] };
  }
  const worker = await waitForWorker(deadline, host.signal);
  if (worker === "stopped") return call.stopped();
  if (worker === "timeout") return call.timedOut();
  if (worker instanceof Error)
    return { status: "error", error: `The sandbox could not start: ${worker.message}`, logs: [] };
  return call.run(worker, request, deadline, host.signal);
}

/** A ready worker, unless the deadline passes or the run is stopped first (the worker then goes back unused). */
function waitForWorker(
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<SandboxWorker | "timeout" | "stopped" | Error> {
  if (signal?.aborted) return Promise.resolve("stopped");
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: SandboxWorker | "timeout" | "stopped" | Error) => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
      return true;
    };
    const onAbort = () => settle("stopped");
    const timer = setTimeout(() => settle("timeout"), Math.max(0, deadline - Date.now()));
    signal?.addEventListener("abort", onAbort, { once: true });
    acquireWorker().then(
      (worker) => {
        if (!settle(worker)) releaseWorker(worker, true);
      },
      (error: unknown) => settle(error instanceof Error ? error : new Error(String(error))),
    );
  });
}

interface Limits {
  timeoutMs: number;
  memoryMb: number;
}

function checkOptions(source: unknown, options: RunCodeOptions): Limits {
  if (typeof source !== "string")
    throw new TypeError("runCode: source must be a string of JavaScript or TypeScript");
  if (options === null || typeof options !== "object")
    throw new TypeError("runCode: options must be an object");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (
    typeof timeoutMs !== "number" ||
    !Number.isFinite(timeoutMs) ||
    timeoutMs < 1 ||
    timeoutMs > MAX_TIMEOUT_MS
  )
    throw new TypeError(
      `runCode: timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}, got ${String(options.timeoutMs)}`,
    );
  const memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
  if (typeof memoryMb !== "number" || !Number.isFinite(memoryMb) || memoryMb < 1 || memoryMb > MAX_MEMORY_MB)
    throw new TypeError(
      `runCode: memoryMb must be between 1 and ${MAX_MEMORY_MB}, got ${String(options.memoryMb)}`,
    );
  for (const [key, value] of [
    ["imports", options.imports],
    ["globals", options.globals],
  ] as const) {
    if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value)))
      throw new TypeError(`runCode: options.${key} must be an object`);
  }
  for (const [name, members] of Object.entries(options.imports ?? {})) {
    if (members === null || typeof members !== "object" || Array.isArray(members))
      throw new TypeError(`runCode: imports["${name}"] must be an object of the module's exports`);
  }
  return { timeoutMs, memoryMb };
}

/** Keys named __proto__ are dropped from everything copied out, so no host object gets a prototype from it. */
function withoutProtoKeys(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

function fromJson(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text, withoutProtoKeys);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function messageOf(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name || "Error", message: error.message };
  return { name: "Error", message: String(error) };
}

/** One runCode call on the host: its bridged functions, the worker's messages, logs and limits. */
class HostCall {
  private static nextId = 1;
  readonly id = HostCall.nextId++;
  private readonly functions: { fn: HostFunction; path: string }[] = [];
  private readonly logs: string[] = [];
  private dropped = 0;
  private nextPromise = 1;
  private active = true;
  private module: PreparedModule | null = null;

  constructor(private readonly limits: Limits) {}

  /** The run message; a global or import that cannot be bridged throws a TypeError naming it. */
  request(module: PreparedModule, options: RunCodeOptions): ToWorker {
    this.module = module;
    const globals = Object.entries(options.globals ?? {}).map(([name, value]): [string, Wire] => [
      name,
      this.encode(value, `globals.${name}`),
    ]);
    const importNames: Record<string, string[]> = {};
    const imports = Object.entries(options.imports ?? {}).map(([name, members]): [string, Wire] => {
      importNames[name] = Object.keys(members);
      return [name, this.encode(members, `imports["${name}"]`)];
    });
    return {
      type: "run",
      id: this.id,
      code: module.code,
      filename: module.filename,
      memoryMb: this.limits.memoryMb,
      globals,
      imports,
      importNames,
      maxLogLines: MAX_LOG_LINES,
      maxLogChars: MAX_LOG_CHARS,
    };
  }

  /** Runs the request on the worker until it answers, the time limit passes or the signal aborts. */
  run(
    worker: SandboxWorker,
    request: ToWorker,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<RunCodeResult> {
    return new Promise<RunCodeResult>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: Omit<RunCodeResult, "logs">, healthy: boolean) => {
        if (!this.active) return;
        this.active = false;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.dropped = Atomics.load(worker.shared, DROPPED_SLOT);
        releaseWorker(worker, healthy);
        resolve({ ...outcome, logs: this.finalLogs() });
      };
      // At the limit or a stop, the worker's messages already on their way (its last log lines) are
      // taken in first: they are dispatched before the event loop's next setImmediate.
      let ending = false;
      const end = (outcome: Omit<RunCodeResult, "logs">) => {
        ending = true;
        setImmediate(() => finish(outcome, false));
      };
      const onAbort = () => end(this.stopped());
      worker.listener = {
        message: (message) => {
          if (message.type !== "ready" && message.id !== this.id) return;
          if (message.type !== "done") this.handle(worker, message);
          else if (!ending) finish(this.outcome(message), true);
        },
        failed: (error) => finish({ status: "error", error: `The sandbox failed: ${error.message}` }, false),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(() => end(this.timedOut()), Math.max(0, deadline - Date.now()));
      Atomics.store(worker.shared, DROPPED_SLOT, 0);
      worker.post(request);
    });
  }

  timedOut(): RunCodeResult {
    return {
      status: "timeout",
      error: `Timed out after ${this.limits.timeoutMs} ms`,
      logs: this.finalLogs(),
    };
  }

  stopped(): RunCodeResult {
    return {
      status: "error",
      error: "Stopped: the run was stopped while the code ran",
      logs: this.finalLogs(),
    };
  }

  private outcome(done: Extract<FromWorker, { type: "done" }>): Omit<RunCodeResult, "logs"> {
    if (done.status === "error") return { status: "error", error: this.sourcePositions(done.error ?? "") };
    return { status: "success", result: fromJson(done.json) };
  }

  private handle(worker: SandboxWorker, message: FromWorker): void {
    switch (message.type) {
      case "log":
        this.logs.push(this.sourcePositions(message.line));
        return;
      case "call":
        worker.reply(this.call(worker, message.fn, message.args));
        return;
    }
  }

  /** Calls a bridged host function with copies of the sandbox's arguments. */
  private call(worker: SandboxWorker, id: number, args: (string | undefined)[]): Reply {
    const entry = this.functions[id];
    if (!entry) return { kind: "error", name: "Error", message: "unknown bridged function" };
    let out: unknown;
    try {
      out = entry.fn(...args.map(fromJson));
    } catch (error) {
      return { kind: "error", ...messageOf(error) };
    }
    if (isThenable(out)) {
      const promise = this.nextPromise++;
      const settle = (message: ToWorker) => {
        if (this.active) worker.post(message);
      };
      Promise.resolve(out).then(
        (value) => {
          if (!this.active) return;
          try {
            settle({
              type: "settle",
              id: this.id,
              promise,
              ok: true,
              value: this.encode(value, `the result of ${entry.path}`),
            });
          } catch (error) {
            settle({ type: "settle", id: this.id, promise, ok: false, ...messageOf(error) });
          }
        },
        (error) => settle({ type: "settle", id: this.id, promise, ok: false, ...messageOf(error) }),
      );
      return { kind: "pending", promise };
    }
    try {
      return { kind: "value", value: this.encode(out, `the result of ${entry.path}`) };
    } catch (error) {
      return { kind: "error", ...messageOf(error) };
    }
  }

  /** A host value as a Wire tree: plain data copied, functions registered for calls. */
  private encode(value: unknown, path: string, ancestors: unknown[] = []): Wire {
    switch (typeof value) {
      case "undefined":
        return { k: "u" };
      case "boolean":
      case "number":
      case "string":
        return { k: "v", v: value };
      case "function": {
        const fn = value as HostFunction;
        this.functions.push({ fn, path });
        return { k: "f", fn: this.functions.length - 1, name: fn.name || path, path };
      }
      case "bigint":
      case "symbol":
        throw new TypeError(
          `runCode: ${path} is a ${typeof value}; only plain data and functions can be bridged`,
        );
    }
    if (value === null) return { k: "v", v: null };
    if (ancestors.includes(value))
      throw new TypeError(`runCode: ${path} refers back to one of its parents (a cycle)`);
    const object = value as Record<string, unknown> & { toJSON?: unknown };
    if (!Array.isArray(object) && typeof object.toJSON === "function")
      return this.encode(object.toJSON(), path, [...ancestors, value]);
    const inner = [...ancestors, value];
    if (Array.isArray(object))
      return { k: "a", items: object.map((item, index) => this.encode(item, `${path}[${index}]`, inner)) };
    return {
      k: "o",
      entries: Object.entries(object)
        .filter(([key]) => key !== "__proto__")
        .map(([key, item]): [string, Wire] => [key, this.encode(item, `${path}.${key}`, inner)]),
    };
  }

  /** Positions in a TypeScript module's stripped code, given as the user's own lines and columns. */
  private sourcePositions(text: string): string {
    const lines = this.module?.lines;
    return lines ? mapPositions(text, "main.ts", lines) : text;
  }

  private finalLogs(): string[] {
    if (this.dropped === 0) return this.logs;
    return [
      ...this.logs,
      `[${this.dropped} more log line(s) dropped: at most ${MAX_LOG_LINES} lines and ${MAX_LOG_CHARS} characters are kept]`,
    ];
  }
}
