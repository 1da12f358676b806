// state.runCode (spec Threads, code execution): an ES module of JavaScript or TypeScript run in a
// fresh QuickJS runtime (the quickjs-emscripten WebAssembly build) per call, with no ambient
// capability: no process, require, fetch, timers, filesystem or network; only the bridged
// `imports` and `globals`. Values cross the boundary as copies of plain data (JSON values);
// functions are bridged by calling the host function with copied arguments. Time and memory are
// limited; console output is captured. docs/runtime.md ("runCode") explains the choice of QuickJS.
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type {
  JSModuleLoadResult,
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten";
import type { RunCodeOptions, RunCodeResult } from "../extensions/define";
import { PRELUDE_SOURCE } from "./prelude";
import { stripTypes, TypeScriptSyntaxError } from "./strip-types";

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MEMORY_MB = 64;
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_MEMORY_MB = 1_024;
/** Log lines kept per call, and their total length; what is over is dropped and counted. */
export const MAX_LOG_LINES = 1_000;
export const MAX_LOG_CHARS = 1_000_000;
/** QuickJS's own stack limit, well inside the WebAssembly stack: deep recursion is an InternalError. */
const MAX_STACK_BYTES = 256 * 1024;
/** Room to describe an error after the code ran out of memory (the message itself needs memory). */
const DESCRIBE_HEADROOM_BYTES = 4 * 1024 * 1024;
const MB = 1024 * 1024;
const MAX_STACK_FRAMES = 10;

type Bridged = Record<string, Record<string, unknown>>;

export interface SandboxHost {
  /**
   * A user stop of the run: it ends a call that waits for host functions at once, and running code at
   * the next interrupt check (an abort can only arrive while the event loop is free). Answers "error".
   */
  signal?: AbortSignal;
}

// QuickJS's own heap limit (setMemoryLimit) misses memory that grows through realloc (many arrays
// filled element by element went to 160 MB under a 64 MB limit), so each call also gets its own
// WebAssembly instance whose memory cannot grow past memoryMb plus room for the engine itself: an
// allocation over it fails inside QuickJS as "out of memory". The module is compiled once per
// process; an instance costs ~10 ms and is garbage once the call ends (nothing outlives a call).
const ENGINE_MB = 16;
const PAGES_PER_MB = 16;

interface Engine {
  quickjs: typeof import("quickjs-emscripten");
  /** Compiled once; null when the .wasm file was not found (each instance then compiles its own). */
  wasmModule: WebAssembly.Module | null;
}

/**
 * The QuickJS build's .wasm file in the project's node_modules. Read by path from the working
 * directory (the server, the worker and the tests run from the project root), not resolved through
 * the module system: the server bundle rewrites static resolutions into bundle ids.
 */
const WASM_FILE = "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm";

let compiled: Promise<Engine> | null = null;

function compileEngine(): Promise<Engine> {
  if (!compiled) {
    const loading = (async () => {
      const quickjs = await import("quickjs-emscripten");
      const bytes = await readFile(path.join(process.cwd(), WASM_FILE)).catch(() => null);
      return { quickjs, wasmModule: bytes ? await WebAssembly.compile(bytes) : null };
    })();
    loading.catch(() => {
      if (compiled === loading) compiled = null;
    });
    compiled = loading;
  }
  return compiled;
}

async function newInstance(
  memoryMb: number,
): Promise<{ quickjs: QuickJSWASMModule; memory: WebAssembly.Memory }> {
  const { quickjs, wasmModule } = await compileEngine();
  const wasmMemory = new WebAssembly.Memory({
    initial: ENGINE_MB * PAGES_PER_MB,
    maximum: (memoryMb + ENGINE_MB) * PAGES_PER_MB,
  });
  const instance = await quickjs.newQuickJSWASMModuleFromVariant(
    quickjs.newVariant(quickjs.RELEASE_SYNC, wasmModule ? { wasmModule, wasmMemory } : { wasmMemory }),
  );
  return { quickjs: instance, memory: wasmMemory };
}

/** Runs `source` in a fresh sandbox; bad options throw a TypeError, anything the code does is a result. */
export async function runSandboxedCode(
  source: string,
  options: RunCodeOptions = {},
  host: SandboxHost = {},
): Promise<RunCodeResult> {
  const limits = checkOptions(source, options);
  const deadline = Date.now() + limits.timeoutMs;
  const instance = await newInstance(limits.memoryMb);
  const run = new SandboxRun(
    instance.quickjs,
    instance.memory,
    limits,
    deadline,
    options.imports ?? {},
    host.signal,
  );
  try {
    return await run.execute(source, options.globals ?? {});
  } finally {
    run.dispose();
  }
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

/** A value the sandbox threw (or a rejection): the handle belongs to whoever catches it. */
class ThrownInSandbox extends Error {
  constructor(readonly handle: QuickJSHandle) {
    super("thrown in the sandbox");
  }
}

/** The time limit passed or the run was stopped (SandboxRun.interrupted says which). */
class Interrupted extends Error {}

/** The module awaits something nothing can settle any more (no host call, no job is pending). */
class NeverSettles extends Error {}

const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;

/** Keys named __proto__ are dropped from everything copied out, so no host object gets a prototype from it. */
function withoutProtoKeys(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

/** Drops the prelude's own frames and keeps the first frames of a long (recursive) stack. */
function tidyStack(text: string): string {
  const [head, ...frames] = text.split("\n").filter((line) => !line.includes("tandem-prelude.js"));
  const kept = frames.slice(0, MAX_STACK_FRAMES);
  if (frames.length > kept.length) kept.push(`    … ${frames.length - kept.length} more frames`);
  return [head, ...kept].join("\n");
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

class SandboxRun {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly logs: string[] = [];
  private logChars = 0;
  private logsDropped = 0;
  /** Handles that live as long as the run (disposed at the end, in reverse). */
  private readonly owned: QuickJSHandle[] = [];
  /** Promises handed to the sandbox for async host functions that have not settled yet. */
  private readonly pending = new Set<QuickJSDeferredPromise>();
  private readonly importsKey = `__tandem_imports_${randomUUID().replaceAll("-", "")}`;
  private toJsonFn: QuickJSHandle | null = null;
  private describeFn: QuickJSHandle | null = null;
  private wake: (() => void) | null = null;
  private closed = false;
  interrupted: "timeout" | "stopped" | null = null;

  constructor(
    quickjs: QuickJSWASMModule,
    private readonly memory: WebAssembly.Memory,
    private readonly limits: Limits,
    private readonly deadline: number,
    private readonly imports: Bridged,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.runtime = quickjs.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryMb * MB);
    this.runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.runtime.setInterruptHandler(() => this.shouldInterrupt());
    // Bare names only: "./x" or "fs" are looked up as they are, and only bridged names exist.
    this.runtime.setModuleLoader(
      (name) => this.loadModule(name),
      (_base, requested) => requested,
    );
    this.context = this.runtime.newContext();
  }

  async execute(source: string, globals: Record<string, unknown>): Promise<RunCodeResult> {
    try {
      this.install(globals);
      const { code, filename } = await this.prepare(source);
      this.checkLimits();
      const evaluated = this.context.evalCode(code, filename, { type: "module" });
      if (evaluated.error) throw new ThrownInSandbox(evaluated.error);
      const namespace = await this.settled(evaluated.value).finally(() => evaluated.value.dispose());
      const exported = this.context.getProp(namespace, "default");
      namespace.dispose();
      const value = await this.settled(exported).finally(() => exported.dispose());
      const copied = this.copyOut(value, "the default export");
      value.dispose();
      if (!copied.ok) throw new ThrownInSandbox(copied.error);
      return { status: "success", result: copied.value, logs: this.finalLogs() };
    } catch (error) {
      return this.failure(error);
    }
  }

  /** Disposes every handle, the context and the runtime (the instance itself is then garbage). */
  dispose(): void {
    this.closed = true;
    this.wake?.();
    try {
      for (const deferred of this.pending) deferred.dispose();
      this.pending.clear();
      for (const handle of this.owned.reverse()) if (handle.alive) handle.dispose();
      this.context.dispose();
      this.runtime.dispose();
    } catch {
      // A failed or exhausted instance may not come apart cleanly; it is dropped either way.
    }
  }

  private shouldInterrupt(): boolean {
    if (this.signal?.aborted) this.interrupted ??= "stopped";
    else if (Date.now() >= this.deadline) this.interrupted ??= "timeout";
    return this.interrupted !== null;
  }

  private checkLimits(): void {
    if (this.shouldInterrupt()) throw new Interrupted();
  }

  private own<T extends QuickJSHandle>(handle: T): T {
    this.owned.push(handle);
    return handle;
  }

  /** The prelude (console, copy-out helpers), then `globals` on the global object and the import table. */
  private install(globals: Record<string, unknown>): void {
    const { context } = this;
    const prelude = context.evalCode(PRELUDE_SOURCE, "tandem-prelude.js", { type: "global" });
    const preludeFn = this.own(context.unwrapResult(prelude));
    const hostLog = this.own(
      context.newFunction("log", (level, text) => {
        this.log(context.getString(level), context.getString(text));
      }),
    );
    const helpers = this.own(
      context.unwrapResult(context.callFunction(preludeFn, context.undefined, hostLog)),
    );
    this.toJsonFn = this.own(context.getProp(helpers, "toJson"));
    this.describeFn = this.own(context.getProp(helpers, "describe"));

    for (const [name, value] of Object.entries(globals)) {
      const handle = this.toVm(value, `globals.${name}`);
      context.setProp(context.global, name, handle);
      handle.dispose();
    }
    const table = context.newObject();
    try {
      for (const [name, members] of Object.entries(this.imports)) {
        const handle = this.toVm(members, `imports["${name}"]`);
        context.defineProp(table, name, { value: handle, enumerable: true, configurable: false });
        handle.dispose();
      }
      context.defineProp(context.global, this.importsKey, {
        value: table,
        enumerable: false,
        configurable: false,
      });
    } finally {
      table.dispose();
    }
  }

  /** JavaScript runs as written; a module QuickJS cannot parse is tried again as TypeScript. */
  private async prepare(source: string): Promise<{ code: string; filename: string }> {
    const checked = this.context.evalCode(source, "main.js", { type: "module", compileOnly: true });
    if (!checked.error) {
      checked.value.dispose();
      return { code: source, filename: "main.js" };
    }
    const nameHandle = this.context.getProp(checked.error, "name");
    const isSyntaxError =
      this.context.typeof(nameHandle) === "string" && this.context.getString(nameHandle) === "SyntaxError";
    nameHandle.dispose();
    if (!isSyntaxError) throw new ThrownInSandbox(checked.error);
    checked.error.dispose();
    return { code: await stripTypes(source, "main.ts"), filename: "main.ts" };
  }

  private loadModule(name: string): JSModuleLoadResult {
    if (!Object.hasOwn(this.imports, name)) {
      const available = Object.keys(this.imports).map((key) => `"${key}"`);
      return {
        error: new Error(
          `Cannot import "${name}": the sandbox has no modules but the bridged imports (${available.join(", ") || "none were given"})`,
        ),
      };
    }
    const members = this.imports[name]!;
    const lines = [
      `const bridged = globalThis[${JSON.stringify(this.importsKey)}][${JSON.stringify(name)}];`,
    ];
    let index = 0;
    for (const key of Object.keys(members)) {
      if (!IDENTIFIER_NAME.test(key)) continue;
      lines.push(
        `const member${index} = bridged[${JSON.stringify(key)}];`,
        `export { member${index} as ${key} };`,
      );
      index++;
    }
    if (!Object.hasOwn(members, "default")) lines.push("export default bridged;");
    return lines.join("\n");
  }

  /** A host value as a new sandbox value: plain data copied, functions bridged. */
  private toVm(value: unknown, path: string, ancestors: unknown[] = []): QuickJSHandle {
    const { context } = this;
    switch (typeof value) {
      case "undefined":
        return context.undefined;
      case "boolean":
        return value ? context.true : context.false;
      case "number":
        return context.newNumber(value);
      case "string":
        return context.newString(value);
      case "function":
        return this.bridge(value as (...args: unknown[]) => unknown, path);
      case "bigint":
      case "symbol":
        throw new TypeError(
          `runCode: ${path} is a ${typeof value}; only plain data and functions can be bridged`,
        );
    }
    if (value === null) return context.null;
    if (ancestors.includes(value))
      throw new TypeError(`runCode: ${path} refers back to one of its parents (a cycle)`);
    const object = value as Record<string, unknown> & { toJSON?: unknown };
    if (!Array.isArray(object) && typeof object.toJSON === "function")
      return this.toVm(object.toJSON(), path, [...ancestors, value]);
    const inner = [...ancestors, value];
    const entries: [string | number, unknown][] = Array.isArray(object)
      ? object.map((item, index) => [index, item])
      : Object.entries(object).filter(([key]) => key !== "__proto__");
    const target = Array.isArray(object) ? context.newArray() : context.newObject();
    try {
      for (const [key, item] of entries) {
        const handle = this.toVm(item, typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`, inner);
        context.setProp(target, key, handle);
        handle.dispose();
      }
    } catch (error) {
      target.dispose();
      throw error;
    }
    return target;
  }

  /** A sandbox function that calls `fn` with copies of its arguments; a promise it returns is awaited. */
  private bridge(fn: (...args: unknown[]) => unknown, path: string): QuickJSHandle {
    const { context } = this;
    return context.newFunction(fn.name || path, (...args) => {
      const values: unknown[] = [];
      for (const [index, arg] of args.entries()) {
        const copied = this.copyOut(arg, `argument ${index + 1} of ${path}`);
        if (!copied.ok) return { error: copied.error };
        values.push(copied.value);
      }
      let out: unknown;
      try {
        out = fn(...values);
      } catch (error) {
        return { error: context.newError(messageOf(error)) };
      }
      if (isThenable(out)) return this.deferred(out, path);
      try {
        return this.toVm(out, `the result of ${path}`);
      } catch (error) {
        return { error: context.newError(messageOf(error)) };
      }
    });
  }

  /** A sandbox promise settled by the host promise, unless the run has ended by then. */
  private deferred(promise: PromiseLike<unknown>, path: string): QuickJSHandle {
    const deferred = this.context.newPromise();
    this.pending.add(deferred);
    const settle = (make: () => QuickJSHandle, rejected: boolean) => {
      if (this.closed || !this.pending.has(deferred)) return;
      this.pending.delete(deferred);
      let handle: QuickJSHandle;
      let reject = rejected;
      try {
        handle = make();
      } catch (error) {
        handle = this.context.newError(messageOf(error));
        reject = true;
      }
      try {
        if (reject) deferred.reject(handle);
        else deferred.resolve(handle);
      } catch {
        // The runtime was interrupted or is out of memory: the driving loop reports it.
      } finally {
        if (handle.alive) handle.dispose();
        deferred.dispose();
        this.wake?.();
      }
    };
    Promise.resolve(promise).then(
      (value) => settle(() => this.toVm(value, `the result of ${path}`), false),
      (error) => settle(() => this.context.newError(messageOf(error)), true),
    );
    return deferred.handle;
  }

  /** A sandbox value copied out as plain data, or the TypeError the sandbox raised about it. */
  private copyOut(
    handle: QuickJSHandle,
    label: string,
  ): { ok: true; value: unknown } | { ok: false; error: QuickJSHandle } {
    const { context } = this;
    const labelHandle = context.newString(label);
    const result = context.callFunction(this.toJsonFn!, context.undefined, handle, labelHandle);
    labelHandle.dispose();
    if (result.error) return { ok: false, error: result.error };
    const text = context.typeof(result.value) === "string" ? context.getString(result.value) : undefined;
    result.value.dispose();
    return { ok: true, value: text === undefined ? undefined : JSON.parse(text, withoutProtoKeys) };
  }

  /** The value a promise settles with (or the value itself), running jobs and waiting for host calls. */
  private async settled(handle: QuickJSHandle): Promise<QuickJSHandle> {
    for (;;) {
      this.runJobs();
      const state = this.context.getPromiseState(handle);
      if (state.type === "fulfilled") return state.notAPromise ? handle.dup() : state.value;
      if (state.type === "rejected") throw new ThrownInSandbox(state.error);
      if (this.pending.size === 0 && !this.runtime.hasPendingJob()) throw new NeverSettles();
      await this.nextEvent();
      this.checkLimits();
    }
  }

  private runJobs(): void {
    const result = this.runtime.executePendingJobs();
    if (result.error) {
      if (this.interrupted) {
        result.error.dispose();
        throw new Interrupted();
      }
      throw new ThrownInSandbox(result.error);
    }
  }

  /** Resolves when a host call settles, the deadline passes or the run is stopped. */
  private nextEvent(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.signal?.removeEventListener("abort", done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, this.deadline - Date.now()));
      this.signal?.addEventListener("abort", done);
      this.wake = done;
    });
  }

  private log(level: string, text: string): void {
    if (this.closed) return;
    const line = level === "warn" || level === "error" ? `[${level}] ${text}` : text;
    const room = MAX_LOG_CHARS - this.logChars;
    if (this.logs.length >= MAX_LOG_LINES || room <= 0) {
      this.logsDropped++;
      return;
    }
    const kept = line.length > room ? `${line.slice(0, room)} [cut]` : line;
    this.logs.push(kept);
    this.logChars += Math.min(line.length, room);
  }

  private finalLogs(): string[] {
    if (this.logsDropped === 0) return this.logs;
    return [
      ...this.logs,
      `[${this.logsDropped} more log line(s) dropped: at most ${MAX_LOG_LINES} lines and ${MAX_LOG_CHARS} characters are kept]`,
    ];
  }

  private failure(error: unknown): RunCodeResult {
    if (error instanceof ThrownInSandbox && !this.interrupted) {
      const text = this.describe(error.handle);
      return { status: "error", error: text, logs: this.finalLogs() };
    }
    if (error instanceof ThrownInSandbox) error.handle.dispose();
    if (error instanceof Interrupted || this.interrupted) {
      return this.interrupted === "stopped"
        ? {
            status: "error",
            error: "Stopped: the run was stopped while the code ran",
            logs: this.finalLogs(),
          }
        : { status: "timeout", error: `Timed out after ${this.limits.timeoutMs} ms`, logs: this.finalLogs() };
    }
    if (error instanceof NeverSettles)
      return {
        status: "error",
        error:
          "The module awaits a promise that can never settle (no bridged call or job is pending; the sandbox has no timers)",
        logs: this.finalLogs(),
      };
    if (error instanceof TypeScriptSyntaxError)
      return { status: "error", error: error.message, logs: this.finalLogs() };
    // A host-side conversion (a bridged value that is not plain data) or QuickJS failing itself.
    return { status: "error", error: messageOf(error).message, logs: this.finalLogs() };
  }

  /** The instance's memory is (nearly) at its cap: QuickJS then may throw null, having no room for an error. */
  private memoryExhausted(): boolean {
    return this.memory.buffer.byteLength >= (this.limits.memoryMb + ENGINE_MB) * MB - ENGINE_MB * MB;
  }

  /** The text of a thrown value; a memory-limit failure says so. Disposes the handle. */
  private describe(thrown: QuickJSHandle): string {
    const { context } = this;
    // Describing needs a little memory, which a module that hit the limit has none of.
    this.runtime.setMemoryLimit(this.limits.memoryMb * MB + DESCRIBE_HEADROOM_BYTES);
    let text = "Uncaught exception (it could not be described)";
    const result = context.callFunction(this.describeFn!, context.undefined, thrown);
    if (result.error) result.error.dispose();
    else {
      if (context.typeof(result.value) === "string") text = context.getString(result.value);
      result.value.dispose();
    }
    thrown.dispose();
    text = tidyStack(text);
    if (/out of memory/i.test(text) || (text === "Uncaught null" && this.memoryExhausted()))
      return `Memory limit exceeded: the code needed more than ${this.limits.memoryMb} MB (${text.split("\n")[0]})`;
    return text;
  }
}
