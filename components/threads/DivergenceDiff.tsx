"use client";
// What changed in a diverged request (docs/live.md "Replay"): a word diff of the recorded value and
// the replayed one at the divergence's path — removed words struck through, added ones underlined,
// each also named for screen readers — in a box scrolled to the first change, so a sentence
// appended to a long prompt is what the eye lands on. The box scrolls to it again whenever its text
// reflows (a resized window, a web font arriving), which moves the change to another line.
import { useLayoutEffect, useMemo, useRef } from "react";
import { divergenceText, wordDiff } from "./word-diff";

export function DivergenceDiff({
  recorded,
  replayed,
  label,
}: {
  recorded: unknown;
  replayed: unknown;
  /** The region's name (one per diverged thread on a page, so each names its thread). */
  label: string;
}) {
  const parts = useMemo(
    () => wordDiff(divergenceText(recorded), divergenceText(replayed)),
    [recorded, replayed],
  );
  const box = useRef<HTMLElement>(null);
  const text = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new parts are new text to scroll to.
  useLayoutEffect(() => {
    const container = box.current;
    const content = text.current;
    if (!container || !content) return;
    const scrollToFirstChange = () => {
      const first = container.querySelector<HTMLElement>("[data-change]");
      if (!first) return;
      // The box's own scroll, not the page's: a few words of context stay above the first change.
      // Measured on screen, so it holds whatever the positioned ancestors are.
      const above = first.getBoundingClientRect().top - container.getBoundingClientRect().top;
      container.scrollTop = Math.max(0, container.scrollTop + above - 24);
    };
    scrollToFirstChange();
    // A reflow changes the text's height or the box's width; either can move the change.
    const reflow = new ResizeObserver(scrollToFirstChange);
    reflow.observe(container);
    reflow.observe(content);
    return () => reflow.disconnect();
  }, [parts]);
  return (
    <section
      ref={box}
      data-testid="divergence-diff"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reachable by keyboard (axe scrollable-region-focusable).
      tabIndex={0}
      aria-label={label}
      className="relative max-h-28 overflow-auto whitespace-pre-wrap break-words rounded border border-border bg-background px-2 py-1 font-mono text-xs leading-5"
    >
      <div ref={text}>
        {parts.map((part, index) =>
          part.kind === "same" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence for these two values.
            <span key={index}>{part.text}</span>
          ) : part.kind === "removed" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            <del key={index} data-change="removed" className="bg-danger/10 text-danger line-through">
              <span className="sr-only">[removed: </span>
              {part.text}
              <span className="sr-only">]</span>
            </del>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            <ins key={index} data-change="added" className="bg-accent/10 font-semibold text-text underline">
              <span className="sr-only">[added: </span>
              {part.text}
              <span className="sr-only">]</span>
            </ins>
          ),
        )}
      </div>
    </section>
  );
}
