// Starts a real `npm run worker` process (the same command, without npm in between so signals reach
// it directly) on a given database, for scale-out tests and benchmarks. It can be SIGKILLed or
// SIGTERMed (drain), and tells its exit code.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface TestWorker {
  readonly pid: number;
  /** The worker's lease owner id starts with this (its pid). */
  readonly ownerPrefix: string;
  output(): string;
  /** SIGKILL; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (drain); resolves with the exit code once it exited. */
  stop(): Promise<number | null>;
}

export async function startTestWorker(env: Record<string, string>, name = "worker"): Promise<TestWorker> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"],
    { cwd: ROOT, env: { ...process.env, NODE_ENV: "production", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  const logFile = path.join(ROOT, "test-results", `${name}-${child.pid}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const record = (chunk: Buffer) => {
    log += chunk.toString();
    fs.appendFileSync(logFile, chunk);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!log.includes("running threads on")) {
    if (child.exitCode !== null) throw new Error(`The worker exited with ${child.exitCode}:\n${log}`);
    if (Date.now() > deadline) throw new Error(`The worker did not start within 60 s:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    pid: child.pid as number,
    ownerPrefix: `${child.pid}:`,
    output: () => log,
    async kill() {
      if (!gone()) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (!gone()) child.kill("SIGTERM");
      return exited;
    },
  };
}
