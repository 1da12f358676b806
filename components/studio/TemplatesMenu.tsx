"use client";
// "Templates" (new from template): replaces the document with a template's bundle as one undoable change.
import { useReactFlow } from "@xyflow/react";
import { Button } from "@/components/ui/Button";
import { ICONS } from "@/components/ui/icons";
import { Menu, MenuItem } from "@/components/ui/Popover";
import { documentFromBundle } from "@/lib/studio/document-layout";
import type { StudioStore } from "@/lib/studio/studio-store";
import { DEMO_MODELS_NOTE, STUDIO_TEMPLATES, type StudioTemplate } from "@/lib/studio/templates";
import { useStudioStore } from "./StudioStoreContext";

export function applyTemplate(store: StudioStore, template: StudioTemplate) {
  store.getState().edit(() => documentFromBundle(template.build()));
  store.getState().select(null);
  store
    .getState()
    .setStatus({ tone: "info", text: `New from template: ${template.label}. ${DEMO_MODELS_NOTE}.` });
}

export function TemplatesMenu() {
  const store = useStudioStore();
  const { fitView } = useReactFlow();
  return (
    <Menu
      label="Templates"
      className="w-80"
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
            applyTemplate(store, template);
            // Frame the new document once React Flow has measured its nodes.
            requestAnimationFrame(() => void fitView({ maxZoom: 1 }));
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
