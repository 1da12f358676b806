"use client";
// Popovers and menus on Floating UI: the panel flips, shifts and shrinks (with a scroll) so it always
// stays inside the viewport, follows its anchor while the page scrolls or resizes, closes on Escape
// or a click outside, moves focus into itself and back to the trigger, and carries the dialog or
// menu role. A menu closes after a choice; its items move with the arrow keys, Home and End.
import {
  autoUpdate,
  FloatingFocusManager,
  FloatingPortal,
  flip,
  offset,
  type Placement,
  shift,
  size,
  useClick,
  useDismiss,
  useFloating,
  useInteractions,
  useRole,
} from "@floating-ui/react";
import {
  type AnchorHTMLAttributes,
  type ButtonHTMLAttributes,
  createContext,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useLayoutEffect,
  useState,
} from "react";

/** Space kept between a panel and the viewport's edges, in CSS pixels. */
export const VIEWPORT_PADDING = 8;

/** Props a trigger spreads onto its button: the ref Floating UI measures and the ARIA state. */
export type TriggerProps = Record<string, unknown> & { ref: (node: HTMLElement | null) => void };

export interface PopoverProps {
  /** The panel's accessible name. */
  label: string;
  /** "menu" for a list of choices, "dialog" for a form or anything else. */
  kind?: "menu" | "dialog";
  placement?: Placement;
  /** The button that opens the panel; absent when `point` anchors it (a context menu). */
  trigger?: (props: TriggerProps, open: boolean) => ReactNode;
  /** Anchors the panel at a viewport point instead of a trigger (right-click menus). */
  point?: { x: number; y: number };
  /** Controlled state; without it the popover keeps its own. */
  open?: boolean;
  onOpenChange?(open: boolean): void;
  className?: string;
  /** The id of an element inside the panel that describes it (a notice above a menu's items). */
  describedBy?: string;
  /** Extra attributes for the panel element (a data-* hook for tests and styles). */
  panelProps?: Record<`data-${string}`, string>;
  children: ReactNode | ((close: () => void) => ReactNode);
}

const MenuContext = createContext<{ close(): void } | null>(null);

/** Closes the enclosing popover; for a panel's own buttons (Cancel, a finished form). */
export function usePopoverClose(): () => void {
  const context = useContext(MenuContext);
  return context?.close ?? (() => {});
}

const PANEL_CLASSES =
  "z-50 flex flex-col overflow-y-auto rounded-md border border-border bg-surface p-1 text-xs shadow-lg outline-none";

function moveMenuFocus(event: KeyboardEvent<HTMLElement>) {
  const items = [
    ...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])'),
  ];
  if (items.length === 0) return;
  const index = items.indexOf(document.activeElement as HTMLElement);
  let next: number;
  if (event.key === "ArrowDown") next = (index + 1) % items.length;
  else if (event.key === "ArrowUp") next = (index - 1 + items.length) % items.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = items.length - 1;
  else return;
  event.preventDefault();
  event.stopPropagation();
  items[next]?.focus();
}

export function Popover({
  label,
  kind = "dialog",
  placement = "bottom-start",
  trigger,
  point,
  open: controlledOpen,
  onOpenChange,
  className = "",
  describedBy,
  panelProps,
  children,
}: PopoverProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (controlledOpen === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  const [maxSize, setMaxSize] = useState<{ width: number; height: number } | null>(null);
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement,
    strategy: "fixed",
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(4),
      flip({ padding: VIEWPORT_PADDING, fallbackAxisSideDirection: "end" }),
      shift({ padding: VIEWPORT_PADDING }),
      size({
        padding: VIEWPORT_PADDING,
        apply({ availableWidth, availableHeight }) {
          setMaxSize((current) =>
            current?.width === availableWidth && current.height === availableHeight
              ? current
              : { width: availableWidth, height: availableHeight },
          );
        },
      }),
    ],
  });
  const pointX = point?.x;
  const pointY = point?.y;
  useLayoutEffect(() => {
    if (pointX === undefined || pointY === undefined) return;
    refs.setPositionReference({ getBoundingClientRect: () => new DOMRect(pointX, pointY, 0, 0) });
  }, [pointX, pointY, refs]);
  const click = useClick(context, { enabled: trigger !== undefined });
  const dismiss = useDismiss(context);
  const role = useRole(context, { role: kind });
  const { getReferenceProps, getFloatingProps } = useInteractions([click, dismiss, role]);
  const close = () => setOpen(false);
  return (
    <>
      {trigger?.({ ref: refs.setReference, ...getReferenceProps() }, open)}
      {open ? (
        <FloatingPortal>
          <FloatingFocusManager context={context} modal={false} returnFocus={trigger !== undefined}>
            <div
              ref={refs.setFloating}
              style={{
                ...floatingStyles,
                maxWidth: maxSize ? Math.max(maxSize.width, 160) : undefined,
                maxHeight: maxSize ? Math.max(maxSize.height, 120) : undefined,
              }}
              className={`${PANEL_CLASSES} ${className}`}
              {...getFloatingProps({
                // useRole gives the panel its role ("menu" or "dialog"); both are named by a label.
                "aria-label": label,
                "aria-describedby": describedBy,
                ...panelProps,
                onKeyDown: kind === "menu" ? moveMenuFocus : undefined,
              })}
            >
              <MenuContext.Provider value={{ close }}>
                {typeof children === "function" ? children(close) : children}
              </MenuContext.Provider>
            </div>
          </FloatingFocusManager>
        </FloatingPortal>
      ) : null}
    </>
  );
}

/** A menu: a popover with the menu role whose items close it when chosen. */
export function Menu(props: Omit<PopoverProps, "kind">) {
  return <Popover placement="bottom-start" {...props} kind="menu" />;
}

const ITEM_CLASSES =
  "flex w-full items-center justify-between gap-3 rounded px-2 py-1.5 text-left hover:bg-surface-muted focus:bg-surface-muted focus:outline-none aria-disabled:cursor-not-allowed aria-disabled:opacity-50";

/** A menu item button: runs `onSelect`, then closes the menu. */
export function MenuItem({
  onSelect,
  disabled = false,
  className = "",
  children,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick" | "disabled"> & {
  onSelect(): void;
  disabled?: boolean;
}) {
  const close = usePopoverClose();
  return (
    <button
      type="button"
      role="menuitem"
      aria-disabled={disabled || undefined}
      className={`${ITEM_CLASSES} ${className}`}
      onClick={() => {
        if (disabled) return;
        close();
        onSelect();
      }}
      {...props}
    >
      {children}
    </button>
  );
}

/** A menu item link (a download, a page): follows the link, then closes the menu. */
export function MenuLink({ className = "", onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  const close = usePopoverClose();
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a real link (href, download): Enter fires its click.
    <a
      role="menuitem"
      className={`${ITEM_CLASSES} ${className}`}
      // biome-ignore lint/a11y/useValidAnchor: the link keeps its href; the click only closes the menu after it.
      onClick={(event) => {
        onClick?.(event);
        // Let the browser start the download or navigation before the link leaves the page.
        setTimeout(close, 0);
      }}
      {...props}
    />
  );
}
