// Pins transcript upkeep: order by seq then id wherever a message lands, a changed seq moving the one
// entry, and streamed text and sides handed over to the persisted message without needless copies.
import { describe, expect, it } from "vitest";
import { messageWire, uuid } from "../../test/support/live-support";
import { applyChunk, applyMessage } from "./apply-message";
import type { LiveMessage } from "./events";
import { getEntry } from "./persistent-map";
import { initialLiveState } from "./reducer";
import { selectStreamingMessages, selectTranscript } from "./selectors";
import type { LiveState } from "./state";

const THREAD = uuid("transcript");

function withMessages(
  messages: Array<{ id: string; seq: number }>,
  state = initialLiveState(THREAD),
): LiveState {
  return messages.reduce(
    (current, { id, seq }) => applyMessage(current, THREAD, messageWire({ id, seq }) as LiveMessage),
    state,
  );
}

const order = (state: LiveState) =>
  selectTranscript(state, THREAD).map((message) => `${message.id}@${message.seq}`);

describe("transcripts", () => {
  it("inserts each message at its place by seq, at the start, in the middle or at the end", () => {
    const state = withMessages([
      { id: "e", seq: 50 },
      { id: "a", seq: 10 },
      { id: "c", seq: 30 },
      { id: "b", seq: 20 },
      { id: "d", seq: 40 },
      { id: "f", seq: 60 },
      { id: "a0", seq: 5 },
    ]);
    expect(order(state)).toEqual(["a0@5", "a@10", "b@20", "c@30", "d@40", "e@50", "f@60"]);
  });

  it("orders equal seqs by id", () => {
    expect(
      order(
        withMessages([
          { id: "m", seq: 1 },
          { id: "z", seq: 1 },
          { id: "a", seq: 1 },
          { id: "k", seq: 1 },
        ]),
      ),
    ).toEqual(["a@1", "k@1", "m@1", "z@1"]);
  });

  it("moves a message whose seq changed, keeping one entry", () => {
    const before = withMessages([
      { id: "a", seq: 1 },
      { id: "b", seq: 2 },
      { id: "c", seq: 3 },
      { id: "d", seq: 4 },
    ]);
    expect(order(withMessages([{ id: "b", seq: 9 }], before))).toEqual(["a@1", "c@3", "d@4", "b@9"]);
    expect(order(withMessages([{ id: "d", seq: 0 }], before))).toEqual(["d@0", "a@1", "b@2", "c@3"]);
    expect(order(withMessages([{ id: "a", seq: 1 }], before))).toEqual(["a@1", "b@2", "c@3", "d@4"]);
    expect(
      getEntry(getEntry(withMessages([{ id: "b", seq: 9 }], before).transcripts, THREAD)!.seqById, "b"),
    ).toBe(9);
  });
});

describe("streamed text and sides", () => {
  it("keeps the same sides object when a chunk repeats the side it has, or has none", () => {
    const first = applyChunk(initialLiveState(THREAD), THREAD, "m1", "Hel", "b");
    expect(first.streamSides).toEqual({ m1: "b" });
    const again = applyChunk(first, THREAD, "m1", "lo", "b");
    expect(again.streamSides).toBe(first.streamSides);
    const sideless = applyChunk(first, THREAD, "m1", "!");
    expect(sideless.streamSides).toBe(first.streamSides);
    expect(selectStreamingMessages(sideless, THREAD)).toEqual([{ messageId: "m1", text: "Hel!", side: "b" }]);
  });

  it("drops only the persisted message's stream and side", () => {
    let state = applyChunk(initialLiveState(THREAD), THREAD, "m1", "one", "a");
    state = applyChunk(state, THREAD, "m2", "two", "b");
    const persisted = applyMessage(state, THREAD, messageWire({ id: "m1", seq: 1 }) as LiveMessage);
    expect(persisted.streamSides).toEqual({ m2: "b" });
    expect(selectStreamingMessages(persisted, THREAD)).toEqual([{ messageId: "m2", text: "two", side: "b" }]);
  });

  it("changes no stream or side for a message that was never streamed", () => {
    const state = applyChunk(initialLiveState(THREAD), THREAD, "m1", "one", "a");
    const persisted = applyMessage(state, THREAD, messageWire({ id: "other", seq: 1 }) as LiveMessage);
    expect(persisted.streaming).toBe(state.streaming);
    expect(persisted.streamSides).toBe(state.streamSides);
    const elsewhere = applyMessage(
      state,
      uuid("elsewhere"),
      messageWire({ id: "m1", seq: 1 }) as LiveMessage,
    );
    expect(elsewhere.streaming).toBe(state.streaming);
  });
});
