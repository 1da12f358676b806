// The drain commit still on its way while the step goes on (docs/runtime.md "The model call starts
// while the drain commits"). A step whose drain was committed speculatively (one statement, on the
// version it read) knows what that commit writes as soon as it is sent; a plain model turn starts its
// call then instead of a commit's round trip later. Everything else the step does (hooks, tools, a
// park, any other commit) asks `confirmed()` first, so nothing outside the model call happens before
// the drain is durable, and the model call's text and reply wait for it too.
export class DrainGate {
  private readonly outcome: Promise<boolean>;

  /**
   * `commit`: the drain's commit; `started`: what its first try's work returned. A retry under the
   * row lock (someone moved the row meanwhile) returns another result: that drain is not this one.
   */
  constructor(commit: Promise<unknown>, started: unknown) {
    this.outcome = commit.then((done) => done === started);
    // Asked for by whoever goes on; `settled` covers a step that ends without asking.
    this.outcome.catch(() => {});
  }

  /**
   * True once the drain the step went on from is committed; false when a retry committed another
   * one (the step's work so far is dropped and the next step starts from the database); rejects
   * as the commit did (lease lost, terminated, stopped).
   */
  confirmed(): Promise<boolean> {
    return this.outcome;
  }

  /** Resolves once the commit is through either way (the step ends only after it). */
  async settled(): Promise<void> {
    await this.outcome.catch(() => false);
  }
}

/**
 * Runs `commit` (a drain commit given an `inFlight` callback) and resolves as soon as its result is
 * known: with a gate when the commit is still on its way, without one when it was not speculative
 * (its result is only known once it is through) or had already finished.
 */
export async function drainInFlight<T>(
  commit: (inFlight: (result: T) => void) => Promise<T>,
): Promise<{ result: T; gate: DrainGate | null }> {
  let sent!: (result: T) => void;
  const early = new Promise<T>((resolve) => {
    sent = resolve;
  });
  let done = false;
  const committing = commit((result) => sent(result));
  void committing.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  const first = await Promise.race([
    committing.then((result) => ({ result, committed: true })),
    early.then((result) => ({ result, committed: false })),
  ]);
  if (first.committed || done) return { result: await committing, gate: null };
  return { result: first.result, gate: new DrainGate(committing, first.result) };
}
