"use client";
// A tooltip on Floating UI: shown on hover (after a short delay) and on keyboard focus, hidden on
// Escape, kept inside the viewport. It describes its trigger (aria-describedby through the tooltip
// role), so a button keeps its own accessible name.
import {
  autoUpdate,
  FloatingPortal,
  flip,
  offset,
  type Placement,
  shift,
  useDismiss,
  useFloating,
  useFocus,
  useHover,
  useInteractions,
  useMergeRefs,
  useRole,
} from "@floating-ui/react";
import { type ReactNode, useState } from "react";
import { type TriggerProps, VIEWPORT_PADDING } from "./Popover";

export function Tooltip({
  content,
  placement = "bottom",
  triggerProps,
  children,
}: {
  content: ReactNode;
  placement?: Placement;
  /** Props another floating element (a menu) puts on the same trigger; merged, handlers chained. */
  triggerProps?: Partial<TriggerProps>;
  children: (props: TriggerProps) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement,
    strategy: "fixed",
    whileElementsMounted: autoUpdate,
    middleware: [offset(6), flip({ padding: VIEWPORT_PADDING }), shift({ padding: VIEWPORT_PADDING })],
  });
  const hover = useHover(context, { delay: { open: 350, close: 0 }, move: false });
  const focus = useFocus(context);
  const dismiss = useDismiss(context);
  const role = useRole(context, { role: "tooltip" });
  const { getReferenceProps, getFloatingProps } = useInteractions([hover, focus, dismiss, role]);
  const { ref: outerRef, ...outerProps } = triggerProps ?? {};
  // Memoised by Floating UI, so the button's ref is stable across renders.
  const ref = (useMergeRefs([refs.setReference, outerRef]) ?? refs.setReference) as TriggerProps["ref"];
  return (
    <>
      {children({ ...getReferenceProps(outerProps), ref })}
      {open ? (
        <FloatingPortal>
          <div
            ref={refs.setFloating}
            style={floatingStyles}
            className="pointer-events-none z-[60] max-w-xs rounded bg-text px-2 py-1 text-xs text-background shadow"
            {...getFloatingProps()}
          >
            {content}
          </div>
        </FloatingPortal>
      ) : null}
    </>
  );
}
