"use client";
// One keydown listener for every command shortcut. Fields keep their own keys (Ctrl+Z inside a
// text box undoes the typing), except for the few commands that make sense anywhere.
import { useEffect } from "react";
import { matchesShortcut } from "@/lib/studio/shortcuts";
import { STUDIO_COMMANDS, type StudioCommandContext } from "./studio-commands";

export function isTextEntry(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

function hasTextSelection(): boolean {
  const selection = window.getSelection();
  return selection !== null && !selection.isCollapsed && selection.toString().trim() !== "";
}

export function useStudioShortcuts(context: StudioCommandContext) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || context.store.getState().dialog !== null) return;
      const typing = isTextEntry(event.target);
      const command = STUDIO_COMMANDS.find((candidate) =>
        candidate.keys?.some((keys) => matchesShortcut(event, keys)),
      );
      if (!command || (typing && !command.whileTyping)) return;
      if (command.yieldsToTextSelection && hasTextSelection()) return;
      event.preventDefault();
      void command.run(context);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [context]);
}
