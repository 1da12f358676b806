// The source thread's recorded model calls of one side, as replay reads them for every replayed call.
// Recorded calls never change once written, and a side's calls only grow (ordered by created_at, id),
// so one read per side serves every later call whose index it already covers: a replay of a thread
// with n calls reads the recording about once, not n times (the O(n²) reads it used to make). A call
// beyond what was read (a source that was still running) reads again. Bounded: least recently used
// sides are dropped first.
import type { RecordedCall } from "../../store/model-calls";
import { type LoggedRequest, resolveRequests } from "../request-log";

export type { RecordedCall };

export interface SideRecording {
  calls: readonly RecordedCall[];
  /** The full request of a call (stored requests are deltas on an earlier call's). */
  request(callId: string): LoggedRequest | null;
}

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

function recordingOf(calls: readonly RecordedCall[]): SideRecording {
  let requests: Map<string, LoggedRequest | null> | undefined;
  return {
    calls,
    request(callId) {
      requests ??= resolveRequests(calls.map((call) => ({ id: call.id, request: json(call.request) })));
      return requests.get(callId) ?? null;
    },
  };
}

export class ReplayRecordings {
  private readonly sides = new Map<string, SideRecording>();
  constructor(private readonly capacity = 256) {}

  /**
   * The recording of `side` of `sourceThreadId` that covers call `index` when the source has made it;
   * `load` reads every recorded call of the side, in order.
   */
  async covering(
    sourceThreadId: string,
    side: string,
    index: number,
    load: () => Promise<RecordedCall[]>,
  ): Promise<SideRecording> {
    const key = `${sourceThreadId}\u0000${side}`;
    const cached = this.sides.get(key);
    if (cached && index < cached.calls.length) {
      this.sides.delete(key);
      this.sides.set(key, cached);
      return cached;
    }
    const recording = recordingOf(await load());
    this.sides.delete(key);
    this.sides.set(key, recording);
    while (this.sides.size > this.capacity) {
      const oldest = this.sides.keys().next().value;
      if (oldest === undefined) break;
      this.sides.delete(oldest);
    }
    return recording;
  }

  get size(): number {
    return this.sides.size;
  }
}
