// ContextMemo: assembling a growing history step by step with the memo gives exactly what assembling
// it from scratch gives, whatever the history holds (tool calls answered late, out of order or never,
// injected messages, both sides, sub-prompt and system messages, images) and however the turn start
// moves; and the unchanged prefix comes back as the same objects (what keeps the request log cheap).
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../test/support/random-bundles";
import { storedMessage, toolCall } from "../../test/support/stored-messages";
import type { Side, StoredMessage } from "../store/messages";
import { assembleContext, type ContextOptions, newContextMemo } from "./context";

interface Walk {
  history: StoredMessage[];
  turnStartSeq: number;
}

/** One random change to the conversation: mostly appends, sometimes a rewrite of what exists. */
function step(walk: Walk, next: () => number, acting: Side): void {
  const roll = next();
  const seq = (walk.history.at(-1)?.seq ?? 0) + 1;
  const open = walk.history.flatMap((message) =>
    (message.tool_calls ?? []).map((call) => ({ id: call.id, side: message.side, name: call.function.name })),
  );
  const other: Side = acting === "a" ? "b" : "a";
  const side = next() < 0.7 ? acting : other;
  if (roll < 0.2) {
    // A new turn: the human (or the other side) speaks.
    walk.history.push(storedMessage({ role: "user", side: other, seq, content: `q${seq}` }));
    walk.turnStartSeq = seq;
  } else if (roll < 0.35) {
    walk.history.push(
      storedMessage({ role: "assistant", side, seq, content: next() < 0.2 ? "" : `a${seq}` }),
    );
  } else if (roll < 0.5) {
    const calls = Array.from({ length: 1 + Math.floor(next() * 2) }, (_, index) =>
      toolCall(`c${seq}_${index}`, "look", { n: seq }),
    );
    walk.history.push(
      storedMessage({
        role: "assistant",
        side,
        seq,
        content: next() < 0.5 ? "" : `t${seq}`,
        tool_calls: calls,
      }),
    );
  } else if (roll < 0.68 && open.length > 0) {
    // A result for some call (maybe late, maybe a duplicate, maybe for the other side's call).
    const call = open[Math.floor(next() * open.length)] as (typeof open)[number];
    walk.history.push(
      storedMessage({
        role: "tool",
        side: call.side,
        seq,
        tool_call_id: call.id,
        name: call.name,
        content: `r${seq}`,
        tool_status: next() < 0.2 ? "error" : "success",
      }),
    );
  } else if (roll < 0.72) {
    walk.history.push(storedMessage({ role: "tool", side, seq, tool_call_id: `orphan${seq}`, content: "x" }));
  } else if (roll < 0.76) {
    walk.history.push(storedMessage({ role: "user", side: null, seq, content: `sub${seq}`, depth: 1 }));
  } else if (roll < 0.79) {
    walk.history.push(storedMessage({ role: "system", side: null, seq, content: `note${seq}` }));
  } else if (roll < 0.82) {
    walk.history.push(
      storedMessage({
        role: "user",
        side: other,
        seq,
        content: `img${seq}`,
        attachments: [
          {
            id: `f${seq}`,
            type: "file",
            path: `/attachments/p${seq}.png`,
            name: `p${seq}.png`,
            mimeType: "image/png",
            size: 3,
          },
        ],
      }),
    );
  } else if (roll < 0.86) {
    // A message injected from outside the sides, written as assistant (side A's).
    walk.history.push(storedMessage({ role: "assistant", side: null, seq, content: `inj${seq}` }));
  } else if (roll < 0.9 && walk.history.length > 0) {
    // The history is read again (new objects, same content), or a message is edited.
    const index = Math.floor(next() * walk.history.length);
    const message = walk.history[index] as StoredMessage;
    walk.history[index] = { ...message, content: next() < 0.5 ? message.content : `edited${seq}` };
  } else if (roll < 0.92 && walk.history.length > 2) {
    walk.history.splice(Math.floor(next() * walk.history.length), 1); // a message deleted
  } else {
    walk.history.push(storedMessage({ role: "user", side: other, seq, content: `more${seq}` }));
  }
}

const OPTIONS: ContextOptions[] = [true, false].flatMap((includeChat) =>
  [true, false].map((includePastTools) => ({ includeChat, includePastTools, recentImageThreshold: 2 })),
);

describe("ContextMemo", () => {
  it("assembles every step of 400 random conversations exactly as from scratch", () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const next = seededRandom(seed).next; // a failure names its seed
      const options = OPTIONS[seed % OPTIONS.length] as ContextOptions;
      const acting: Side = seed % 3 === 0 ? "b" : "a";
      const memo = newContextMemo();
      const walk: Walk = { history: [], turnStartSeq: 1 };
      for (let round = 0; round < 60; round += 1) {
        step(walk, next, acting);
        // Images sent in some steps only: the memo must not go on from a step that had them.
        const imageData =
          next() < 0.15
            ? new Map(
                walk.history.flatMap((message) => message.attachments.map((file) => [file.path, "AAAA"])),
              )
            : undefined;
        const input = {
          systemPrompt: "sys",
          messages: walk.history,
          actingSide: acting,
          turnStartSeq: walk.turnStartSeq,
          options,
          ...(imageData ? { imageData } : {}),
        };
        const expected = assembleContext(input);
        let actual: unknown;
        try {
          actual = assembleContext(input, memo);
        } catch (error) {
          throw new Error(`seed ${seed}, round ${round}: ${String(error)}`);
        }
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          expect({ seed, round, actual }).toEqual({ seed, round, actual: expected });
      }
    }
  });

  it("hands back the unchanged prefix as the same objects and does work for new messages only", () => {
    const options: ContextOptions = { includeChat: true, includePastTools: false, recentImageThreshold: 2 };
    const memo = newContextMemo();
    const history: StoredMessage[] = [];
    let previous: ReturnType<typeof assembleContext> = [];
    for (let turn = 1; turn <= 50; turn += 1) {
      const question = storedMessage({ role: "user", side: "b", seq: 2 * turn - 1, content: `q${turn}` });
      history.push(question);
      const context = assembleContext(
        { systemPrompt: "sys", messages: history, actingSide: "a", turnStartSeq: question.seq, options },
        memo,
      );
      // Every earlier message, past the system prompt, is the very object the last call returned.
      for (let index = 1; index < previous.length; index += 1) expect(context[index]).toBe(previous[index]);
      expect(context).toHaveLength(2 * turn);
      previous = context;
      history.push(storedMessage({ role: "assistant", side: "a", seq: 2 * turn, content: `a${turn}` }));
    }
  });

  it("starts over when the turn start would show or hide a remembered tool call", () => {
    const options: ContextOptions = { includeChat: true, includePastTools: false, recentImageThreshold: 2 };
    const memo = newContextMemo();
    const history = [
      storedMessage({ role: "user", side: "b", seq: 1, content: "q1" }),
      storedMessage({
        role: "assistant",
        side: "a",
        seq: 2,
        content: "",
        tool_calls: [toolCall("k1", "look")],
      }),
      storedMessage({ role: "tool", side: "a", seq: 3, tool_call_id: "k1", name: "look", content: "r" }),
    ];
    const input = { systemPrompt: "sys", actingSide: "a" as const, options };
    expect(assembleContext({ ...input, messages: history, turnStartSeq: 1 }, memo)).toHaveLength(4);
    history.push(storedMessage({ role: "user", side: "b", seq: 4, content: "q2" }));
    // The new turn hides the earlier turn's call and its result.
    expect(assembleContext({ ...input, messages: history, turnStartSeq: 4 }, memo)).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "q1" },
      { role: "user", content: "q2" },
    ]);
  });
});
