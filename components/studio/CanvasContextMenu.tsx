"use client";
// Right-click on the canvas: the edit commands for the selection, then align and distribute when
// enough nodes are selected (or paste and select all on empty canvas), in a menu anchored at the pointer that stays inside the viewport. Arrow keys move
// between items; Escape, a click elsewhere or a choice closes it.
import { Menu, MenuItem } from "@/components/ui/Popover";
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
  const mac = isMacPlatform();
  return (
    <Menu
      label="Canvas actions"
      placement="bottom-start"
      point={{ x: menu.x, y: menu.y }}
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="w-56"
    >
      {ITEMS[menu.target].map((id) => {
        const command = studioCommand(id);
        if (command.available && !command.available(context)) return null;
        return (
          <MenuItem key={id} onSelect={() => void command.run(context)}>
            <span>{command.label}</span>
            {command.keys?.[0] ? (
              <span className="text-muted">{shortcutLabel(command.keys[0], mac)}</span>
            ) : null}
          </MenuItem>
        );
      })}
    </Menu>
  );
}
