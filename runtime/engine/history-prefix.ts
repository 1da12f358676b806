// Whether a history is an earlier one with messages appended: the memos of long conversations
// (context assembly, the run memory's size estimate) go on from where they stopped only then.

/**
 * Whether `next` starts with exactly the first `length` objects of `previous` (all of them by
 * default). Pointer comparisons only: O(n), but microseconds for thousands of messages.
 */
export function extendsHistory<T>(
  previous: readonly T[],
  next: readonly T[],
  length = previous.length,
): boolean {
  if (next.length < length || previous.length < length) return false;
  for (let index = 0; index < length; index += 1) if (previous[index] !== next[index]) return false;
  return true;
}

/**
 * Whether some item of a history passes `test`, kept up to date as the history grows: while each
 * history given extends the last one, only the new items are tested.
 */
export class HistoryHasSome<T> {
  private seen: readonly T[] = [];
  private found = false;

  constructor(private readonly test: (item: T) => boolean) {}

  in(history: readonly T[]): boolean {
    const from = extendsHistory(this.seen, history) ? this.seen.length : 0;
    let found = from > 0 && this.found;
    for (let index = from; !found && index < history.length; index += 1)
      found = this.test(history[index] as T);
    this.seen = history.slice(); // a copy: callers append to their history arrays
    this.found = found;
    return found;
  }
}
