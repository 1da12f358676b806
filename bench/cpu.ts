// CPU accounting from /proc: the Postgres cluster's processes (postmaster and backends, including
// backends that already exited) and the whole machine, so each benchmark can say where the CPU
// went: this process, Postgres, or something else running on the machine at the same time.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const TICKS_PER_SECOND = clockTicks();

/** CPU time (user + system, ms) of a postmaster and all its children, alive or exited. */
export function processTreeCpuMs(postmasterPid: number): number {
  let ticks = 0;
  const self = readStat(postmasterPid);
  // cutime/cstime: children that exited and were waited for (backends of closed connections).
  if (self) ticks += self.utime + self.stime + self.cutime + self.cstime;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.ppid === postmasterPid) ticks += stat.utime + stat.stime;
  }
  return (ticks / TICKS_PER_SECOND) * 1000;
}

/** Resident memory (bytes) of a process and its direct children (a server and its workers). */
export function processTreeRssBytes(pid: number): number {
  let bytes = readRss(pid);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    if (readStat(Number(entry))?.ppid === pid) bytes += readRss(Number(entry));
  }
  return bytes;
}

function readRss(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export interface MachineCpu {
  /** Busy CPU time of all cores (user, nice, system, irq, softirq), ms. */
  busyMs: number;
  /** Time the hypervisor ran something else while this machine wanted a core, ms. */
  stealMs: number;
}

export function machineCpu(): MachineCpu {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const toMs = (ticks: number) => (ticks / TICKS_PER_SECOND) * 1000;
  return {
    busyMs: toMs((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)),
    stealMs: toMs(steal ?? 0),
  };
}

/** CPU time of this process (user + system), ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

interface ProcStat {
  ppid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
}

function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // Fields after the parenthesised command name (which may itself contain spaces).
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return {
    ppid: Number(fields[1]),
    utime: Number(fields[11]),
    stime: Number(fields[12]),
    cutime: Number(fields[13]),
    cstime: Number(fields[14]),
  };
}

function clockTicks(): number {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}
