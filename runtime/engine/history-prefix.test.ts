import { describe, expect, it } from "vitest";
import { extendsHistory, HistoryHasSome } from "./history-prefix";

describe("extendsHistory", () => {
  it("is true only when the new history starts with the very same objects", () => {
    const a = { n: 1 };
    const b = { n: 2 };
    expect(extendsHistory([a], [a, b])).toBe(true);
    expect(extendsHistory([], [a])).toBe(true);
    expect(extendsHistory([a, b], [a])).toBe(false);
    expect(extendsHistory([a], [{ n: 1 }, b])).toBe(false); // equal content, another object
  });
});

describe("HistoryHasSome", () => {
  it("tests only the new items while the history grows, and all of them again when it changed", () => {
    const tested: number[] = [];
    const hasBig = new HistoryHasSome<{ n: number }>((item) => {
      tested.push(item.n);
      return item.n > 10;
    });
    const history = [{ n: 1 }, { n: 2 }];
    expect(hasBig.in(history)).toBe(false);
    history.push({ n: 3 }); // appended in place: the memo kept a copy of what it saw
    expect(hasBig.in(history)).toBe(false);
    expect(tested).toEqual([1, 2, 3]);
    const grown = [...history, { n: 11 }, { n: 4 }];
    expect(hasBig.in(grown)).toBe(true);
    expect(hasBig.in([...grown, { n: 5 }])).toBe(true);
    expect(tested).toEqual([1, 2, 3, 11]); // found: nothing more to test
    // A message replaced (an edit): every item is tested again.
    const edited = [{ n: 1 }, ...grown.slice(1, 3), { n: 4 }];
    expect(hasBig.in(edited)).toBe(false);
    expect(tested.slice(4)).toEqual([1, 2, 3, 4]);
  });
});
