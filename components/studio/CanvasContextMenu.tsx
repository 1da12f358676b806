"use client";
// Right-click on the canvas: the edit commands for the selection, then align and distribute when
// enough nodes are selected (or paste and select all on empty canvas). Arrow keys move between
// items, Escape or a click elsewhere closes it.
import { useEffect, useRef } from "react";
import { shortcutLabel } from "@/lib/studio/shortcuts";
import { isMacPlatform } from "./platform";
import { ARRANGE_COMMAND_IDS, type StudioCommandContext, studioCommand } from "./studio-commands";

export interface CanvasMenuState {
  x: number;
  y: number;
  target: "pane" | "selection";
}

const ITEMS: Record<CanvasMenuState["target"], string[]> = {
  selection: ["copy", "duplicate", "delete", "paste", ...ARRANGE_COMMAND_IDS],
  pane: ["paste", "select-all", "auto-layout", "fit-view"],
};

export function CanvasContextMenu({
  menu,
  context,
  onClose,
}: {
  menu: CanvasMenuState;
  context: StudioCommandContext;
  onClose(): void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const closeOnOutsideClick = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    window.addEventListener("pointerdown", closeOnOutsideClick);
    return () => window.removeEventListener("pointerdown", closeOnOutsideClick);
  }, [onClose]);
  const mac = isMacPlatform();
  const moveFocus = (delta: number) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    items[(index + delta + items.length) % items.length]?.focus();
  };
  return (
    <div
      ref={ref}
      role="menu"
      aria-label="Canvas actions"
      style={{ left: menu.x, top: menu.y }}
      className="fixed z-30 flex w-56 flex-col rounded border border-border bg-surface p-1 text-xs shadow-lg"
      onKeyDown={(event) => {
        if (event.key === "ArrowDown") moveFocus(1);
        else if (event.key === "ArrowUp") moveFocus(-1);
        else if (event.key === "Escape") onClose();
        else return;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {ITEMS[menu.target].map((id) => {
        const command = studioCommand(id);
        if (command.available && !command.available(context)) return null;
        return (
          <button
            key={id}
            type="button"
            role="menuitem"
            className="flex justify-between rounded px-2 py-1 text-left hover:bg-surface-muted focus:bg-surface-muted focus:outline-none"
            onClick={() => {
              onClose();
              void command.run(context);
            }}
          >
            <span>{command.label}</span>
            {command.keys?.[0] ? (
              <span className="text-muted">{shortcutLabel(command.keys[0], mac)}</span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
