"use client";
// "?" or the toolbar's "Keyboard shortcuts": every command with a shortcut (F6 between the studio's
// areas among them), the code pane's keys and the canvas gestures, each read from where it is
// defined, and the skip link to the playground.
import { Dialog, DialogHeader } from "@/components/ui/Dialog";
import { shortcutLabel } from "@/lib/studio/shortcuts";
import { isMacPlatform } from "./platform";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { CANVAS_GESTURES, CODE_PANE_SHORTCUTS, STUDIO_COMMANDS } from "./studio-commands";

function ShortcutTable({ caption, rows }: { caption: string; rows: { keys: string; label: string }[] }) {
  return (
    <table className="w-full text-xs">
      <caption className="pb-1 text-left font-semibold">{caption}</caption>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.label}|${row.keys}`} className="border-t border-border">
            <th scope="row" className="py-1 pr-3 text-left font-normal">
              {row.label}
            </th>
            <td className="py-1 text-right">
              <kbd className="inline-block whitespace-nowrap rounded border border-border bg-surface-muted px-1.5 py-0.5 font-mono">
                {row.keys}
              </kbd>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ShortcutsDialog() {
  const store = useStudioStore();
  const open = useStudio((state) => state.dialog === "shortcuts");
  const close = () => store.getState().openDialog(null);
  const mac = isMacPlatform();
  const commands = STUDIO_COMMANDS.filter((command) => command.keys?.length).map((command) => ({
    label: command.label,
    keys: (command.keys ?? []).map((keys) => shortcutLabel(keys, mac)).join(" or "),
  }));
  const codePane = Object.values(CODE_PANE_SHORTCUTS).map((shortcut) => ({
    label: shortcut.label,
    keys: shortcutLabel(shortcut.keys, mac),
  }));
  return (
    <Dialog open={open} label="Keyboard shortcuts" onClose={close}>
      <DialogHeader title="Keyboard shortcuts" onClose={close} />
      <div className="flex w-[34rem] flex-col gap-4 p-4">
        <ShortcutTable caption="Commands" rows={commands} />
        <ShortcutTable caption="In the code pane" rows={codePane} />
        <ShortcutTable caption="On the canvas" rows={[...CANVAS_GESTURES]} />
        <p className="text-xs text-muted">
          Every command, including those without a shortcut, is in the command palette (
          {shortcutLabel("Mod+K", mac)}). While the playground is open, the studio&apos;s first Tab stop is
          &ldquo;Skip to the playground&rdquo;; F6 reaches it from anywhere.
        </p>
      </div>
    </Dialog>
  );
}
