// Starts a real Tandem server (what `npm start` runs: scripts/serve.mjs on the production build) on
// a free loopback port with its own database, for integration and end-to-end tests. It can be
// stopped, SIGKILLed and restarted on the same database, which is how durability is tested.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { checkBuild } from "../../scripts/build-stamp.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

let buildChecked = false;

/**
 * Refuses to test a build that is missing or older than the sources (see scripts/build-stamp.mjs):
 * after a server change the tests would otherwise run the old code and a green would mean nothing.
 * Checked once per process.
 */
export function assertBuilt(): void {
  if (buildChecked) return;
  const build = checkBuild(ROOT);
  if (!build.ok) throw new Error(build.message);
  buildChecked = true;
}

export interface TestServer {
  readonly baseUrl: string;
  readonly port: number;
  /** The server process's id (null while it is not running), for benchmarks reading /proc. */
  pid(): number | null;
  /** Everything the server printed, for assertions and for debugging failures. */
  output(): string;
  stop(): Promise<void>;
  kill(): Promise<void>;
  /** Stops the server (SIGTERM) and starts it again; `env` overrides the environment from now on. */
  restart(env?: Record<string, string>): Promise<void>;
  /** Resolves once the server process has exited on its own (e.g. at a crash point). */
  exited(timeoutMs?: number): Promise<void>;
}

export async function startTestServer(env: Record<string, string>): Promise<TestServer> {
  assertBuilt();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = "";
  let child: ChildProcess | null = null;
  let currentEnv = env;

  async function launch(): Promise<void> {
    // What `npm start` runs: Next's handler behind the API's fast lane (scripts/serve.mjs).
    // --keepAliveTimeout: past the tests' pauses, so a reused idle socket is never one the server is closing.
    const spawned = spawn(
      process.execPath,
      [
        path.join(ROOT, "scripts/serve.mjs"),
        "-H",
        "127.0.0.1",
        "-p",
        String(port),
        "--keepAliveTimeout",
        "65000",
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NEXT_TELEMETRY_DISABLED: "1",
          NEXT_MANUAL_SIG_HANDLE: "true",
          NODE_ENV: "production",
          ...currentEnv,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = spawned;
    const logFile = path.join(ROOT, "test-results", `server-${port}.log`);
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const record = (chunk: Buffer) => {
      log += chunk.toString();
      fs.appendFileSync(logFile, chunk);
    };
    spawned.stdout?.on("data", record);
    spawned.stderr?.on("data", record);
    // How it ended, in its log: a SIGKILL with no crash point before it came from outside the test.
    spawned.on("exit", (code, signal) =>
      record(Buffer.from(`[test] server pid ${spawned.pid} exited: code ${code}, signal ${signal}\n`)),
    );
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (spawned.exitCode !== null) throw new Error(`Server exited with ${spawned.exitCode}:\n${log}`);
      try {
        const response = await fetch(`${baseUrl}/api/health`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`Server did not become healthy within 60 s:\n${log}`);
  }

  async function end(signal: NodeJS.Signals): Promise<void> {
    const current = child;
    child = null;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once("exit", () => resolve());
      current.kill(signal);
    });
  }

  await launch();
  return {
    baseUrl,
    port,
    pid: () => (child as ChildProcess | null)?.pid ?? null,
    output: () => log,
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
    async restart(overrides?: Record<string, string>) {
      await end("SIGTERM");
      if (overrides) currentEnv = { ...currentEnv, ...overrides };
      await launch();
    },
    async exited(timeoutMs = 60_000) {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the server did not exit within ${timeoutMs} ms`)),
          timeoutMs,
        );
        current.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
