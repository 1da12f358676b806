import { describe, expect, it } from "vitest";
import { awayFromStepSlot, StepSlots, withStepSlot } from "./step-slots";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("StepSlots", () => {
  it("lets another step run while one waits away from its slot, and serves the returning step first", async () => {
    const slots = new StepSlots(1);
    const order: string[] = [];
    const model = deferred();
    const away: boolean[] = [];
    const firstRun = new AbortController().signal;
    const first = withStepSlot(
      slots,
      firstRun,
      async () => {
        order.push("first starts");
        await awayFromStepSlot(firstRun, async () => {
          order.push("first waits on its model");
          await model.promise;
        });
        order.push("first goes on");
      },
      (isAway) => away.push(isAway),
    );
    const blocker = deferred();
    const second = withStepSlot(slots, {}, async () => {
      order.push("second runs");
      await blocker.promise;
    });
    const third = withStepSlot(slots, {}, async () => {
      order.push("third runs");
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // One slot: the second step took the slot the first gave up; the third waits.
    expect(order).toEqual(["first starts", "first waits on its model", "second runs"]);
    expect(slots.active).toBe(1);
    model.resolve();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(slots.waiting).toBe(2);
    blocker.resolve();
    await Promise.all([first, second, third]);
    // The first step, coming back from its model, went before the third, which had waited longer.
    expect(order).toEqual([
      "first starts",
      "first waits on its model",
      "second runs",
      "first goes on",
      "third runs",
    ]);
    expect(away).toEqual([true, false]);
    expect(slots.active).toBe(0);
    expect(slots.waiting).toBe(0);
  });

  it("runs the wait as is outside a step and in a nested wait, and gives the slot back after an error", async () => {
    const slots = new StepSlots(1);
    const run = new AbortController().signal;
    expect(await awayFromStepSlot(undefined, async () => 7)).toBe(7);
    expect(await awayFromStepSlot(run, async () => 8)).toBe(8);
    await expect(
      withStepSlot(slots, run, async () => {
        await awayFromStepSlot(run, async () => {
          expect(slots.active).toBe(0);
          await awayFromStepSlot(run, async () => expect(slots.active).toBe(0));
          throw new Error("model failed");
        });
      }),
    ).rejects.toThrow("model failed");
    expect(slots.active).toBe(0);
    await withStepSlot(slots, run, async () => expect(slots.active).toBe(1));
  });

  it("gives up only the slot of the step its key names", async () => {
    const slots = new StepSlots(2);
    const [one, two] = [new AbortController().signal, new AbortController().signal];
    const model = deferred();
    const running = deferred();
    const stepTwo = withStepSlot(slots, two, () => running.promise);
    await withStepSlot(slots, one, async () => {
      expect(slots.active).toBe(2);
      // Step one's model call frees step one's slot, whichever step is running when it starts.
      const call = awayFromStepSlot(one, () => model.promise);
      expect(slots.active).toBe(1);
      // A key with no step (a run between its steps) runs the wait holding nothing.
      await awayFromStepSlot(new AbortController().signal, async () => expect(slots.active).toBe(1));
      model.resolve();
      await call;
      expect(slots.active).toBe(2);
    });
    running.resolve();
    await stepTwo;
    expect(slots.active).toBe(0);
  });
});
