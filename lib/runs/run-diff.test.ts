import { describe, expect, it } from "vitest";
import { canonicalJson, diffRuns, type RunMessage, type RunTree } from "./run-diff";

let counter = 0;
function msg(
  threadId: string,
  role: RunMessage["role"],
  content: string | null,
  extra: Partial<RunMessage> = {},
) {
  counter += 1;
  return {
    id: `m${counter}`,
    thread_id: threadId,
    seq: counter,
    role,
    side: role === "user" ? "b" : "a",
    content,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    tool_status: null,
    silent: false,
    attachments: [],
    ...extra,
  } satisfies RunMessage;
}

const ROOT_A = "aaaaaaaa-0000-4000-8000-000000000001";
const ROOT_B = "bbbbbbbb-0000-4000-8000-000000000001";
const CHILD_A = "aaaaaaaa-0000-4000-8000-000000000002";
const CHILD_B = "bbbbbbbb-0000-4000-8000-000000000002";

function run(
  root: string,
  child: string,
  options: { reply?: string; childReply?: string; args?: string } = {},
): RunTree {
  const call = {
    id: `call-${root}`,
    name: "researcher",
    arguments: options.args ?? '{"topic":"tides","depth":2}',
  };
  return {
    thread: { thread_id: root, agent: "lead", name: null, status: "completed" },
    messages: [
      msg(root, "user", "Research tides"),
      msg(root, "assistant", null, { tool_calls: [call] }),
      msg(root, "tool", `Subagent "researcher" started (reference: ${child}).`, {
        name: "researcher",
        tool_call_id: call.id,
        tool_status: "success",
      }),
      msg(root, "assistant", options.reply ?? "Done."),
    ],
    children: [
      {
        spawnCallId: call.id,
        tree: {
          thread: { thread_id: child, agent: "researcher", name: "researcher", status: "completed" },
          messages: [msg(child, "user", "tides"), msg(child, "assistant", options.childReply ?? "Moon.")],
          children: [],
        },
      },
    ],
  };
}

describe("diffRuns", () => {
  it("finds no divergence between two identical runs (ids, thread ids and key order ignored)", () => {
    const diff = diffRuns(
      run(ROOT_A, CHILD_A),
      run(ROOT_B, CHILD_B, { args: '{ "depth": 2, "topic": "tides" }' }),
    );
    expect(diff.first_divergence).toBeNull();
    expect(diff.steps.every((step) => step.same)).toBe(true);
    // Root messages 0 and 1, then the child's two right after the spawning call, then the rest.
    expect(diff.steps.map((step) => step.path)).toEqual([[], [], [0], [0], [], []]);
    expect(diff.steps.map((step) => step.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(diff.children).toEqual([
      {
        path: [0],
        a: expect.objectContaining({ thread_id: CHILD_A }),
        b: expect.objectContaining({ thread_id: CHILD_B }),
        first_step: 2,
      },
    ]);
  });

  it("reports the first differing step, in the root or in a child", () => {
    const root = diffRuns(run(ROOT_A, CHILD_A), run(ROOT_B, CHILD_B, { reply: "Finished." }));
    expect(root.first_divergence).toBe(5);
    expect(root.steps[5]!.differences).toEqual(["content"]);
    const child = diffRuns(run(ROOT_A, CHILD_A), run(ROOT_B, CHILD_B, { childReply: "The sun." }));
    expect(child.first_divergence).toBe(3);
    expect(child.steps[3]!.path).toEqual([0]);
    const args = diffRuns(
      run(ROOT_A, CHILD_A),
      run(ROOT_B, CHILD_B, { args: '{"topic":"waves","depth":2}' }),
    );
    expect(args.first_divergence).toBe(1);
    expect(args.steps[1]!.differences).toEqual(["tool_calls"]);
  });

  it("pads the shorter run with absent steps and a missing child with null", () => {
    const a = run(ROOT_A, CHILD_A);
    const b: RunTree = { ...run(ROOT_B, CHILD_B), children: [] };
    const diff = diffRuns(a, { ...b, messages: b.messages.slice(0, 3) });
    expect(diff.first_divergence).toBe(2);
    expect(diff.steps[2]).toMatchObject({
      a: { content: "tides" },
      b: null,
      same: false,
      differences: ["presence"],
    });
    expect(diff.steps.at(-1)).toMatchObject({ a: { content: "Done." }, b: null, path: [] });
    expect(diff.children[0]).toMatchObject({ a: { thread_id: CHILD_A }, b: null });
  });

  it("compares role, side, tool status and silence", () => {
    const base = run(ROOT_A, CHILD_A);
    const other = run(ROOT_B, CHILD_B);
    const changed: RunTree = {
      ...other,
      messages: other.messages.map((message, index) =>
        index === 2 ? { ...message, tool_status: "error" as const, silent: true } : message,
      ),
    };
    const diff = diffRuns(base, changed);
    // The tool result is the root's third message; the child's two steps come before it.
    expect(diff.first_divergence).toBe(4);
    expect(diff.steps[4]!.differences).toEqual(["tool_status", "silent"]);
  });
});

describe("canonicalJson", () => {
  it("sorts keys and keeps text that is not JSON", () => {
    expect(canonicalJson('{"b":1,"a":{"d":2,"c":[3]}}')).toBe('{"a":{"c":[3],"d":2},"b":1}');
    expect(canonicalJson("not json")).toBe("not json");
  });
});
