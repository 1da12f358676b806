// Preloaded into a benchmark's server (NODE_OPTIONS=--require, set by the idle-streams benchmark):
// on SIGUSR2 the process collects its garbage (a full collection through the inspector) and then
// writes process.memoryUsage() to <BENCH_SERVER_MEMORY>/memory-<pid>.json, so the benchmark reads
// what the server retains rather than garbage the collector has not taken yet (an RSS read right
// after 1,000 connections opened moved by 2× between Node 20 and 24 for that reason alone).
const fs = require("node:fs");
const path = require("node:path");
const { Session } = require("node:inspector");

const folder = process.env.BENCH_SERVER_MEMORY;
if (folder) {
  let session = null;
  process.on("SIGUSR2", () => {
    if (!session) {
      session = new Session();
      session.connect();
    }
    session.post("HeapProfiler.collectGarbage", () => {
      const file = path.join(folder, `memory-${process.pid}.json`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
      fs.renameSync(`${file}.tmp`, file);
    });
  });
}
