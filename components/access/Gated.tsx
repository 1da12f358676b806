"use client";
// A control a role may not use: disabled, with the reason in a tooltip on a focusable wrapper (a
// disabled button gets no hover or focus events of its own) and as the control's description
// (aria-describedby to a visually hidden copy), so a screen reader reads why it is unavailable.
import { cloneElement, isValidElement, type ReactNode, useId } from "react";
import { Tooltip } from "../ui/Tooltip";

export function Gated({ reason, children }: { reason: string | null; children: ReactNode }) {
  const id = useId();
  if (reason === null) return <>{children}</>;
  const described = isValidElement<{ "aria-describedby"?: string }>(children)
    ? cloneElement(children, {
        "aria-describedby": [children.props["aria-describedby"], id].filter(Boolean).join(" "),
      })
    : children;
  return (
    <Tooltip content={reason}>
      {(props) => (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the reason a control is disabled must be reachable by keyboard.
        <span {...props} tabIndex={0} className="inline-flex rounded-md" data-disabled-reason={reason}>
          {described}
          <span id={id} className="sr-only">
            {reason}
          </span>
        </span>
      )}
    </Tooltip>
  );
}
