Error.stackTraceLimit = 50;

// runCode's worker thread: runs one module at a time in a fresh QuickJS WebAssembly instance, and
// is terminated by the host at the time limit (run-code.ts), so no guest code, however long a
// builtin it sits in, ever holds the host's event loop. Bridged functions live on the host: a
// call posts a message and blocks on Atomics.wait until the host answers on the `replies` port
// (read with receiveMessageOnPort); a promise the host function returns settles later through an
// ordinary message. The host has already stripped TypeScript (esbuild runs there). Plain JavaScript (no build step), so Node starts it as it is under Next,
// vitest and tsx. The message shapes are in protocol.ts; the slot numbers below mirror it.
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from "quickjs-emscripten";

const REPLY_SLOT = 0;
const DROPPED_SLOT = 1;
const MB = 1024 * 1024;
/** Room for the engine itself (code, stack, static data) above the code's own memory limit. */
const ENGINE_MB = 16;
const PAGES_PER_MB = 16;
/** QuickJS's own stack limit, well inside the WebAssembly stack: deep recursion is an InternalError. */
const MAX_STACK_BYTES = 256 * 1024;
/** Room to describe an error after the code ran out of memory (the message itself needs memory). */
const DESCRIBE_HEADROOM_BYTES = 4 * 1024 * 1024;
const MAX_STACK_FRAMES = 10;
const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;

/** @type {import("./protocol").WorkerStart} */
const start = workerData;
const shared = new Int32Array(start.shared);

/** A value the sandbox threw (or a rejection): the handle belongs to whoever catches it. */
class ThrownInSandbox extends Error {
  constructor(handle) {
    super("thrown in the sandbox");
    this.handle = handle;
  }
}

/** The module awaits something nothing can settle any more (no host call, no job is pending). */
class NeverSettles extends Error {}

/** Drops the prelude's own frames and keeps the first frames of a long (recursive) stack. */
function tidyStack(text) {
  const [head, ...frames] = text.split("\n").filter((line) => !line.includes("tandem-prelude.js"));
  const kept = frames.slice(0, MAX_STACK_FRAMES);
  if (frames.length > kept.length) kept.push(`    … ${frames.length - kept.length} more frames`);
  return [head, ...kept].join("\n");
}

/** Sends `message` to the host and blocks until its answer arrives on the replies port. */
function askHost(message) {
  const seen = Atomics.load(shared, REPLY_SLOT);
  parentPort.postMessage(message);
  for (;;) {
    const received = receiveMessageOnPort(start.replies);
    if (received) return received.message;
    Atomics.wait(shared, REPLY_SLOT, seen);
  }
}

class Run {
  /** @param {Extract<import("./protocol").ToWorker, { type: "run" }>} request */
  constructor(request) {
    this.request = request;
    this.id = request.id;
    this.logLines = 0;
    this.logChars = 0;
    /** Promises handed to the sandbox for async host functions, by the host's promise id. */
    this.pending = new Map();
    this.wake = null;
    this.importsKey = `__tandem_imports_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  }

  async execute() {
    try {
      await this.create();
      this.install();
      const { code, filename } = this.request;
      const evaluated = this.context.evalCode(code, filename, { type: "module" });
      if (evaluated.error) throw new ThrownInSandbox(evaluated.error);
      const namespace = await this.settled(evaluated.value);
      const exported = this.context.getProp(namespace, "default");
      const value = await this.settled(exported);
      const copied = this.copyOut(value, "the default export");
      if (!copied.ok) throw new ThrownInSandbox(copied.error);
      return { status: "success", json: copied.json };
    } catch (error) {
      return { status: "error", error: this.failure(error) };
    }
    // Nothing is disposed: the whole WebAssembly instance is garbage once this run is dropped, and
    // freeing a runtime that still holds stopped promise chains only trips QuickJS's assertions.
  }

  /** Settles a promise a host function returned, when the host's promise settles. */
  receive(message) {
    const deferred = this.pending.get(message.promise);
    if (!deferred) return;
    this.pending.delete(message.promise);
    const { context } = this;
    let handle;
    try {
      handle = message.ok
        ? this.toVm(message.value)
        : context.newError({ name: message.name, message: message.message });
      if (message.ok) deferred.resolve(handle);
      else deferred.reject(handle);
    } catch {
      // Out of memory while copying the answer in: the driving loop reports it.
    } finally {
      if (handle?.alive) handle.dispose();
      deferred.dispose();
    }
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * QuickJS's own heap limit (setMemoryLimit) misses memory that grows through realloc, so each run
   * gets its own WebAssembly memory that cannot grow past memoryMb plus room for the engine: an
   * allocation over it fails inside QuickJS as "out of memory".
   */
  async create() {
    const { memoryMb } = this.request;
    this.memory = new WebAssembly.Memory({
      initial: ENGINE_MB * PAGES_PER_MB,
      maximum: (memoryMb + ENGINE_MB) * PAGES_PER_MB,
    });
    const quickjs = await newQuickJSWASMModuleFromVariant(
      newVariant(
        RELEASE_SYNC,
        start.wasmModule
          ? { wasmModule: start.wasmModule, wasmMemory: this.memory }
          : { wasmMemory: this.memory },
      ),
    );
    this.runtime = quickjs.newRuntime();
    this.runtime.setMemoryLimit(memoryMb * MB);
    this.runtime.setMaxStackSize(MAX_STACK_BYTES);
    // Bare names only: "./x" or "fs" are looked up as they are, and only bridged names exist.
    this.runtime.setModuleLoader(
      (name) => this.loadModule(name),
      (_base, requested) => requested,
    );
    this.context = this.runtime.newContext();
  }

  /** The prelude (console, copy-out helpers), then `globals` on the global object and the import table. */
  install() {
    const { context, request } = this;
    const preludeFn = context.unwrapResult(
      context.evalCode(start.prelude, "tandem-prelude.js", { type: "global" }),
    );
    const hostLog = context.newFunction("log", (level, text) => {
      this.log(context.getString(level), context.getString(text));
    });
    const helpers = context.unwrapResult(context.callFunction(preludeFn, context.undefined, hostLog));
    this.toJsonFn = context.getProp(helpers, "toJson");
    this.describeFn = context.getProp(helpers, "describe");

    for (const [name, wire] of request.globals) {
      const handle = this.toVm(wire);
      context.setProp(context.global, name, handle);
      handle.dispose();
    }
    const table = context.newObject();
    for (const [name, wire] of request.imports) {
      const handle = this.toVm(wire);
      context.defineProp(table, name, { value: handle, enumerable: true, configurable: false });
      handle.dispose();
    }
    context.defineProp(context.global, this.importsKey, {
      value: table,
      enumerable: false,
      configurable: false,
    });
    table.dispose();
  }

  loadModule(name) {
    const members = this.request.importNames[name];
    if (!Object.hasOwn(this.request.importNames, name) || !members) {
      const available = Object.keys(this.request.importNames).map((key) => `"${key}"`);
      return {
        error: new Error(
          `Cannot import "${name}": the sandbox has no modules but the bridged imports (${available.join(", ") || "none were given"})`,
        ),
      };
    }
    const lines = [
      `const bridged = globalThis[${JSON.stringify(this.importsKey)}][${JSON.stringify(name)}];`,
    ];
    let index = 0;
    for (const key of members) {
      if (!IDENTIFIER_NAME.test(key)) continue;
      lines.push(
        `const member${index} = bridged[${JSON.stringify(key)}];`,
        `export { member${index} as ${key} };`,
      );
      index++;
    }
    if (!members.includes("default")) lines.push("export default bridged;");
    return lines.join("\n");
  }

  /** A host value (as a Wire tree) as a new sandbox value: data copied, functions bridged. */
  toVm(wire) {
    const { context } = this;
    switch (wire.k) {
      case "u":
        return context.undefined;
      case "v":
        if (wire.v === null) return context.null;
        if (typeof wire.v === "boolean") return wire.v ? context.true : context.false;
        if (typeof wire.v === "number") return context.newNumber(wire.v);
        return context.newString(wire.v);
      case "f":
        return this.bridge(wire);
      case "a":
      case "o": {
        const target = wire.k === "a" ? context.newArray() : context.newObject();
        const entries = wire.k === "a" ? wire.items.map((item, index) => [index, item]) : wire.entries;
        for (const [key, item] of entries) {
          const handle = this.toVm(item);
          context.setProp(target, key, handle);
          handle.dispose();
        }
        return target;
      }
    }
    throw new TypeError(`runCode: unknown value kind ${String(wire.k)}`);
  }

  /** A sandbox function that asks the host to call its function with copies of the arguments. */
  bridge(wire) {
    const { context } = this;
    return context.newFunction(wire.name, (...args) => {
      const values = [];
      for (const [index, arg] of args.entries()) {
        const copied = this.copyOut(arg, `argument ${index + 1} of ${wire.path}`);
        if (!copied.ok) return { error: copied.error };
        values.push(copied.json);
      }
      /** @type {import("./protocol").Reply} */
      const reply = askHost({ type: "call", id: this.id, fn: wire.fn, args: values });
      if (reply.kind === "value") return this.toVm(reply.value);
      if (reply.kind === "pending") {
        const deferred = context.newPromise();
        this.pending.set(reply.promise, deferred);
        return deferred.handle;
      }
      return { error: context.newError({ name: reply.name, message: reply.message }) };
    });
  }

  /** A sandbox value as JSON text made by the prelude, or the TypeError the sandbox raised about it. */
  copyOut(handle, label) {
    const { context } = this;
    const labelHandle = context.newString(label);
    const result = context.callFunction(this.toJsonFn, context.undefined, handle, labelHandle);
    labelHandle.dispose();
    if (result.error) return { ok: false, error: result.error };
    const json = context.typeof(result.value) === "string" ? context.getString(result.value) : undefined;
    result.value.dispose();
    return { ok: true, json };
  }

  /** The value a promise settles with (or the value itself), running jobs and waiting for host calls. */
  async settled(handle) {
    for (;;) {
      const jobs = this.runtime.executePendingJobs();
      if (jobs.error) throw new ThrownInSandbox(jobs.error);
      const state = this.context.getPromiseState(handle);
      if (state.type === "fulfilled") return state.notAPromise ? handle : state.value;
      if (state.type === "rejected") throw new ThrownInSandbox(state.error);
      if (this.pending.size === 0 && !this.runtime.hasPendingJob()) throw new NeverSettles();
      if (!this.runtime.hasPendingJob()) await new Promise((resolve) => (this.wake = resolve));
    }
  }

  log(level, text) {
    const { maxLogLines, maxLogChars } = this.request;
    const line = level === "warn" || level === "error" ? `[${level}] ${text}` : text;
    const room = maxLogChars - this.logChars;
    if (this.logLines >= maxLogLines || room <= 0) {
      Atomics.add(shared, DROPPED_SLOT, 1);
      return;
    }
    this.logLines++;
    this.logChars += Math.min(line.length, room);
    parentPort.postMessage({
      type: "log",
      id: this.id,
      line: line.length > room ? `${line.slice(0, room)} [cut]` : line,
    });
  }

  failure(error) {
    if (error instanceof ThrownInSandbox) return this.describe(error.handle);
    if (error instanceof NeverSettles)
      return "The module awaits a promise that can never settle (no bridged call or job is pending; the sandbox has no timers)";
    // QuickJS failing itself (an instance that could not be created, memory exhausted in the FFI).
    return error instanceof Error ? error.message : String(error);
  }

  /** The instance's memory is (nearly) at its cap: QuickJS then may throw null, having no room for an error. */
  memoryExhausted() {
    return this.memory.buffer.byteLength >= this.request.memoryMb * MB;
  }

  /** The text of a thrown value; a memory-limit failure says so. */
  describe(thrown) {
    const { context, request } = this;
    // Describing needs a little memory, which a module that hit the limit has none of.
    this.runtime.setMemoryLimit(request.memoryMb * MB + DESCRIBE_HEADROOM_BYTES);
    let text = "Uncaught exception (it could not be described)";
    try {
      const result = context.callFunction(this.describeFn, context.undefined, thrown);
      if (!result.error && context.typeof(result.value) === "string") text = context.getString(result.value);
    } catch {
      // No memory left even for the description.
    }
    text = tidyStack(text);
    if (/out of memory/i.test(text) || (text === "Uncaught null" && this.memoryExhausted()))
      return `Memory limit exceeded: the code needed more than ${request.memoryMb} MB (${text.split("\n")[0]})`;
    return text;
  }
}

/** @type {Run | null} */
let current = null;

parentPort.on("message", (/** @type {import("./protocol").ToWorker} */ message) => {
  if (message.type === "run") {
    const run = new Run(message);
    current = run;
    run.execute().then((outcome) => {
      if (current === run) current = null;
      parentPort.postMessage({ type: "done", id: run.id, ...outcome });
    });
  } else if (message.type === "settle" && current?.id === message.id) current.receive(message);
});

parentPort.postMessage({ type: "ready" });
