// The messages between runCode's host side (run-code.ts, worker-pool.ts) and its worker thread
// (sandbox-worker.mjs, plain JavaScript so that Node runs it as it is under Next, vitest and tsx).
// Values cross as `Wire` trees: plain data as it is, functions as ids the host calls on request.
import type { MessagePort } from "node:worker_threads";

/** A host value on its way into the sandbox: data copied, each function replaced by its id. */
export type Wire =
  | { k: "u" }
  | { k: "v"; v: string | number | boolean | null }
  | { k: "a"; items: Wire[] }
  | { k: "o"; entries: [string, Wire][] }
  | { k: "f"; fn: number; name: string; path: string };

/** What the worker is given when it starts (`workerData`). */
export interface WorkerStart {
  /** The QuickJS build, compiled once by the host; null lets each instance compile its own. */
  wasmModule: WebAssembly.Module | null;
  prelude: string;
  /** Int32 slots: [REPLY_SLOT] counts host replies, [DROPPED_SLOT] counts dropped log lines. */
  shared: SharedArrayBuffer;
  /** The worker's end of the channel it reads host replies from synchronously. */
  replies: MessagePort;
}

export const REPLY_SLOT = 0;
export const DROPPED_SLOT = 1;
export const SHARED_SLOTS = 2;

/** Host → worker, through `worker.postMessage`. */
export type ToWorker =
  | {
      type: "run";
      id: number;
      /** The module as QuickJS runs it: the source, or its JavaScript when it was TypeScript. */
      code: string;
      filename: "main.js" | "main.ts";
      memoryMb: number;
      globals: [string, Wire][];
      imports: [string, Wire][];
      /** The names of each import's members (the module loader exports these). */
      importNames: Record<string, string[]>;
      maxLogLines: number;
      maxLogChars: number;
    }
  | { type: "settle"; id: number; promise: number; ok: true; value: Wire }
  | { type: "settle"; id: number; promise: number; ok: false; name: string; message: string };

/** Worker → host, through `parentPort.postMessage`. The host answers `call` on `replies`. */
export type FromWorker =
  | { type: "ready" }
  | { type: "log"; id: number; line: string }
  /** `args` are JSON texts made by the sandbox (undefined for `undefined`). */
  | { type: "call"; id: number; fn: number; args: (string | undefined)[] }
  | {
      type: "done";
      id: number;
      status: "success" | "error";
      /** The default export as JSON text (undefined when it is undefined). */
      json?: string;
      error?: string;
    };

/** The host's synchronous answer to a `call`. */
export type Reply =
  | { kind: "value"; value: Wire }
  | { kind: "error"; name: string; message: string }
  | { kind: "pending"; promise: number };
