// Property: delivering the same stream with duplicates (re-sent persisted events, reconnects from an
// older Last-Event-ID, id-less copies of thread and message payloads) and with token chunks
// interleaved at random ends in the same state as the clean stream. Seeded, so a failure replays.
import { describe, expect, it } from "vitest";
import { fanOutScript, ROOT } from "../../test/support/live-scenario";
import { snapshotLiveState, stateFromFrames } from "../../test/support/live-support";
import type { SseFrame } from "./events";

/** mulberry32: a tiny seeded PRNG, so every run and every failure is reproducible. */
function seededRandom(seed: number): () => number {
  let current = seed >>> 0;
  return () => {
    current = (current + 0x6d2b79f5) >>> 0;
    let mixed = current;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Merges two sequences at random, keeping each one's own order (chunks travel outside the log). */
function interleave<T>(random: () => number, left: readonly T[], right: readonly T[]): T[] {
  const merged: T[] = [];
  let leftIndex = 0;
  let rightIndex = 0;
  while (leftIndex < left.length || rightIndex < right.length) {
    const takeLeft = rightIndex >= right.length || (leftIndex < left.length && random() < 0.6);
    merged.push(takeLeft ? left[leftIndex++]! : right[rightIndex++]!);
  }
  return merged;
}

/** The persisted stream with re-deliveries: single events, whole reconnect replays, id-less copies. */
function withDuplicates(random: () => number, persisted: readonly SseFrame[]): SseFrame[] {
  const delivered: SseFrame[] = [];
  for (const [index, frame] of persisted.entries()) {
    delivered.push(frame);
    const earlier = persisted.slice(0, index + 1);
    const roll = random();
    if (roll < 0.25) delivered.push(pick(random, earlier));
    else if (roll < 0.3) delivered.push(...earlier.slice(Math.floor(random() * earlier.length)));
    else if (roll < 0.45) {
      // The same payload without its id, as when a REST snapshot is merged into the stream.
      const copy = pick(
        random,
        earlier.filter((item) => item.event === "thread" || item.event === "message"),
      );
      if (copy) delivered.push({ event: copy.event, data: copy.data });
    }
  }
  return delivered;
}

describe("delivery independence (property, seeded)", () => {
  const script = fanOutScript();
  const persisted = script.frames.filter((frame) => frame.id !== undefined);
  const chunks = script.frames.filter((frame) => frame.id === undefined);
  const expected = snapshotLiveState(stateFromFrames(ROOT, script.frames));

  it("the scenario has chunks, duplicates-sensitive telemetry and updates to exercise", () => {
    expect(chunks.length).toBeGreaterThan(5);
    expect(persisted.some((frame) => frame.data.includes('"llm_error"'))).toBe(true);
    expect(expected.streaming).not.toEqual({});
  });

  it("duplicates and chunk timing never change the final state (200 seeds)", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seededRandom(seed);
      const delivered = interleave(random, withDuplicates(random, persisted), chunks);
      expect(delivered.length, `seed ${seed}`).toBeGreaterThan(script.frames.length);
      expect(snapshotLiveState(stateFromFrames(ROOT, delivered)), `seed ${seed}`).toEqual(expected);
    }
  });
});
