"use client";
// "Templates" (new from template): replaces the document with a template's bundle as one undoable change.
import { useEffect } from "react";
import { Button } from "@/components/ui/Button";
import { ICONS } from "@/components/ui/icons";
import { Menu, MenuItem } from "@/components/ui/Popover";
import { loadElk } from "@/lib/graph";
import { laidOutDocumentFromBundle } from "@/lib/studio/document-layout";
import { shortcutLabel } from "@/lib/studio/shortcuts";
import type { StudioStore } from "@/lib/studio/studio-store";
import {
  DEMO_MODELS_NOTE,
  STUDIO_TEMPLATES,
  type StudioTemplate,
  templateAppliedText,
} from "@/lib/studio/templates";
import { isMacPlatform } from "./platform";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import type { StudioViewport } from "./studio-actions";

/**
 * Lays the template out (ELK, async, packed for the canvas in view), then replaces the document with
 * it as one undoable change.
 */
export async function applyTemplate(
  store: StudioStore,
  viewport: StudioViewport,
  template: StudioTemplate,
): Promise<void> {
  const document = await laidOutDocumentFromBundle(template.build(), viewport.layoutRoom());
  const replaced = store.getState().history.present.nodes.length;
  store.getState().edit(() => document);
  store.getState().select(null);
  store.getState().setStatus({
    tone: "info",
    text: templateAppliedText(
      template.label,
      replaced,
      shortcutLabel("Mod+Z", isMacPlatform()),
      Boolean(template.evalSuites),
    ),
    aboutUndo: replaced > 0,
  });
}

export function TemplatesMenu({ viewport }: { viewport: StudioViewport }) {
  const store = useStudioStore();
  // Open state in the store: the empty canvas's "Start from a template" opens this menu too.
  const open = useStudio((state) => state.dialog === "templates");
  const setOpen = (next: boolean) => {
    if (next) store.getState().openDialog("templates");
    else if (store.getState().dialog === "templates") store.getState().openDialog(null);
  };
  // Start loading the layout engine (about 1.6 MB) once the studio is idle, before a template is picked.
  useEffect(() => {
    const handle = setTimeout(() => void loadElk(), 1000);
    return () => clearTimeout(handle);
  }, []);
  return (
    <Menu
      label="Templates"
      className="w-80"
      open={open}
      onOpenChange={setOpen}
      trigger={(props) => (
        <Button
          size="compact"
          title="New from template: replaces the canvas (undo brings it back)"
          {...props}
        >
          {ICONS.templates}
          Templates
          {ICONS.chevronDown}
        </Button>
      )}
    >
      {STUDIO_TEMPLATES.map((template) => (
        <MenuItem
          key={template.id}
          className="flex-col items-start gap-0.5"
          onSelect={() => {
            // Frame the new document once it is laid out and React Flow has measured its nodes.
            void applyTemplate(store, viewport, template).then(() =>
              requestAnimationFrame(() => viewport.fitCanvas()),
            );
          }}
        >
          <span className="block font-medium">{template.label}</span>
          <span className="block text-muted">{template.description}</span>
        </MenuItem>
      ))}
      <p className="mt-1 border-t border-border px-2 pt-1.5 pb-1 text-muted">{DEMO_MODELS_NOTE}</p>
    </Menu>
  );
}
