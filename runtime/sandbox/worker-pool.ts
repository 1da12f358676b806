// The worker threads runCode runs in (sandbox-worker.mjs): a few are kept started and idle so a
// call does not wait for a thread to boot; a worker that ends a call normally goes back to the
// pool, one that was terminated (time limit, user stop) or failed is replaced in the background.
// Idle workers are unref'd: they never keep the process alive.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { PRELUDE_SOURCE } from "./prelude";
import { type FromWorker, REPLY_SLOT, SHARED_SLOTS, type WorkerStart } from "./protocol";

/**
 * The worker script and the QuickJS build's .wasm file, read by path from the working directory
 * (the server, the worker process and the tests run from the project root), not resolved through
 * the module system: the server bundle rewrites static resolutions into bundle ids, and a worker
 * needs a real file that Node can run as it is.
 */
const WORKER_FILE = "runtime/sandbox/sandbox-worker.mjs";
const WASM_FILE = "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm";

/** Idle workers kept started; more are started on demand when calls overlap. */
export const POOL_SIZE = 2;

/** What a worker's current call listens to (one call at a time per worker). */
export interface CallListener {
  message(message: FromWorker): void;
  /** The worker failed or exited while the call was using it. */
  failed(error: Error): void;
}

export class SandboxWorker {
  readonly shared: Int32Array;
  readonly ready: Promise<void>;
  /** The host's end of the channel the worker reads replies from synchronously. */
  readonly replies: MessagePort;
  listener: CallListener | null = null;
  dead = false;

  constructor(
    private readonly worker: Worker,
    shared: SharedArrayBuffer,
    replies: MessagePort,
  ) {
    this.shared = new Int32Array(shared);
    this.replies = replies;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if (message.type === "ready") resolve();
        else this.listener?.message(message);
      };
      const onError = (error: Error) => {
        this.dead = true;
        reject(error);
        this.listener?.failed(error);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", (code) => onError(new Error(`the sandbox's worker thread exited (code ${code})`)));
    });
    // A worker that failed before it was ready is dropped; nobody else awaits this.
    this.ready.catch(() => {});
  }

  post(message: unknown): void {
    this.worker.postMessage(message);
  }

  /** Answers the worker's pending `call` or `strip`: the message first, then the wake-up. */
  reply(message: unknown): void {
    this.replies.postMessage(message);
    Atomics.add(this.shared, REPLY_SLOT, 1);
    Atomics.notify(this.shared, REPLY_SLOT);
  }

  ref(): void {
    this.worker.ref();
  }

  unref(): void {
    this.worker.unref();
  }

  /** Ends the thread wherever it is (inside a builtin, waiting on Atomics.wait); it is not awaited. */
  terminate(): void {
    this.dead = true;
    this.listener = null;
    this.worker.terminate().catch(() => {});
    this.replies.close();
  }
}

let compiled: Promise<WebAssembly.Module | null> | null = null;

/** The QuickJS WebAssembly module, compiled once per process and shared by every worker. */
function compileEngine(): Promise<WebAssembly.Module | null> {
  if (!compiled) {
    compiled = readFile(path.join(process.cwd(), WASM_FILE)).then(
      (bytes) => WebAssembly.compile(bytes),
      () => null,
    );
  }
  return compiled;
}

async function startWorker(): Promise<SandboxWorker> {
  const wasmModule = await compileEngine();
  const shared = new SharedArrayBuffer(SHARED_SLOTS * Int32Array.BYTES_PER_ELEMENT);
  const channel = new MessageChannel();
  const workerData: WorkerStart = { wasmModule, prelude: PRELUDE_SOURCE, shared, replies: channel.port2 };
  const worker = new Worker(path.join(process.cwd(), WORKER_FILE), {
    workerData,
    transferList: [channel.port2],
    // Nothing of the host's: no environment variables, no loaders or flags (tsx, --conditions).
    env: {},
    execArgv: [],
  });
  worker.unref();
  return new SandboxWorker(worker, shared, channel.port1);
}

/** A started worker, once it has loaded QuickJS and said it is ready. */
async function startReadyWorker(): Promise<SandboxWorker> {
  const worker = await startWorker();
  await worker.ready;
  return worker;
}

const idle: SandboxWorker[] = [];
/** Workers being started to refill the pool; a call takes one before starting yet another. */
const starting: Promise<SandboxWorker>[] = [];
/** Start-ups a call has claimed (they do not go to the idle list when they are ready). */
const claimed = new WeakSet<Promise<SandboxWorker>>();

function unclaimed(): Promise<SandboxWorker>[] {
  return starting.filter((start) => !claimed.has(start));
}

/** Starts workers in the background until POOL_SIZE are idle or on their way. */
function warm(): void {
  while (idle.length + unclaimed().length < POOL_SIZE) {
    const next = startReadyWorker();
    starting.push(next);
    const settle = () => starting.splice(starting.indexOf(next), 1);
    next.then((worker) => {
      settle();
      if (!worker.dead && !claimed.has(next)) {
        worker.unref();
        idle.push(worker);
      }
    }, settle);
  }
}

/** A ready worker for one call: an idle one, one that is starting, or a new one. */
export async function acquireWorker(): Promise<SandboxWorker> {
  for (let worker = idle.pop(); worker; worker = idle.pop()) {
    if (worker.dead) continue;
    warm();
    worker.ref();
    return worker;
  }
  const next = unclaimed()[0] ?? startReadyWorker();
  claimed.add(next);
  warm();
  const worker = await next;
  worker.ref();
  return worker;
}

/** Gives a worker back after a call: a healthy one is kept while the pool has room. */
export function releaseWorker(worker: SandboxWorker, healthy: boolean): void {
  worker.listener = null;
  if (healthy && !worker.dead && idle.length < POOL_SIZE) {
    worker.unref();
    idle.push(worker);
    return;
  }
  worker.terminate();
  warm();
}
