// BENCH_PROFILE=<folder>: a V8 CPU profile of one measured window (only the window, not the
// cluster's start or the migrations), written as <folder>/<name>.cpuprofile for Chrome DevTools.
// With BENCH_HEAP=1 too, an allocation sampling profile of the same window (<name>.heapprofile),
// counting objects the GC has already collected, so it shows what is allocated, not what is kept.
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";

export async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const folder = process.env.BENCH_PROFILE;
  if (!folder) return work();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  if (process.env.BENCH_HEAP) {
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  try {
    return await work();
  } finally {
    if (process.env.BENCH_HEAP) {
      const { profile: heap } = await session.post("HeapProfiler.stopSampling");
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `${name}.heapprofile`), JSON.stringify(heap));
    }
    const { profile } = await session.post("Profiler.stop");
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${name}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    console.log(`CPU profile of ${name}: ${file}`);
    session.disconnect();
  }
}
