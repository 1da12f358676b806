import { describe, expect, it } from "vitest";
import { ParentWaker } from "./parent-waker";

function deferred() {
  let resolve: () => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe("ParentWaker", () => {
  it("runs one wake-up per parent at a time and one more after it for every request meanwhile", async () => {
    const calls: { parentId: string; done: ReturnType<typeof deferred> }[] = [];
    const waker = new ParentWaker(
      (parentId) => {
        const done = deferred();
        calls.push({ parentId, done });
        return done.promise;
      },
      () => {},
    );
    waker.request("p");
    waker.request("p");
    waker.request("p");
    waker.request("q");
    expect(calls.map((call) => call.parentId)).toEqual(["p", "q"]);
    expect(waker.pending).toBe(3);

    calls[0]!.done.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The requests made while the first wake-up ran: one more, started after it ended.
    expect(calls.map((call) => call.parentId)).toEqual(["p", "q", "p"]);

    calls[1]!.done.resolve();
    calls[2]!.done.resolve();
    await waker.idle();
    expect(waker.pending).toBe(0);
    expect(calls).toHaveLength(3);
  });

  it("reports a failed wake-up and keeps serving that parent", async () => {
    const errors: string[] = [];
    let attempts = 0;
    const waker = new ParentWaker(
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("connection lost");
      },
      (parentId, error) => errors.push(`${parentId}: ${(error as Error).message}`),
    );
    waker.request("p");
    await waker.idle();
    waker.request("p");
    await waker.idle();
    expect(errors).toEqual(["p: connection lost"]);
    expect(attempts).toBe(2);
  });

  it("is idle at once with nothing requested", async () => {
    const waker = new ParentWaker(
      () => Promise.reject(new Error("never called")),
      () => {},
    );
    await waker.idle();
    expect(waker.pending).toBe(0);
  });
});
