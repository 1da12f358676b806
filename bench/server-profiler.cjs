// Preloaded into a benchmark's server (NODE_OPTIONS=--require, set by BENCH_SERVER_PROFILE, since
// Node refuses --cpu-prof there): a V8 CPU profile of the whole process, sampled every 200 µs and
// written as <BENCH_SERVER_PROFILE>/server-<pid>.cpuprofile when the process exits.
const fs = require("node:fs");
const path = require("node:path");
const { Session } = require("node:inspector");

const folder = process.env.BENCH_SERVER_PROFILE;
if (folder) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  session.post("Profiler.start");
  // A main-thread session answers synchronously, so this completes inside the exit handler.
  process.on("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (error || !result) return;
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
