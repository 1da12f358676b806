"use client";
// A control a role may not use: disabled, with the reason in a tooltip on a focusable wrapper (a
// disabled button gets no hover or focus events of its own).
import type { ReactNode } from "react";
import { Tooltip } from "../ui/Tooltip";

export function Gated({ reason, children }: { reason: string | null; children: ReactNode }) {
  if (reason === null) return <>{children}</>;
  return (
    <Tooltip content={reason}>
      {(props) => (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the reason a control is disabled must be reachable by keyboard.
        <span {...props} tabIndex={0} className="inline-flex rounded-md" data-disabled-reason={reason}>
          {children}
        </span>
      )}
    </Tooltip>
  );
}
