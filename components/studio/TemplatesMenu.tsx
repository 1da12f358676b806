"use client";
// "New from template": replaces the document with a template's bundle as one undoable change.
import { useReactFlow } from "@xyflow/react";
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { loadElk } from "@/lib/graph";
import { laidOutDocumentFromBundle } from "@/lib/studio/document-layout";
import type { StudioStore } from "@/lib/studio/studio-store";
import { DEMO_MODELS_NOTE, STUDIO_TEMPLATES, type StudioTemplate } from "@/lib/studio/templates";
import { FIT_VIEW_OPTIONS } from "./layout-actions";
import { useStudioStore } from "./StudioStoreContext";

/** Lays the template out (ELK, async), then replaces the document with it as one undoable change. */
export async function applyTemplate(store: StudioStore, template: StudioTemplate): Promise<void> {
  const document = await laidOutDocumentFromBundle(template.build());
  store.getState().edit(() => document);
  store.getState().select(null);
  store
    .getState()
    .setStatus({ tone: "info", text: `New from template: ${template.label}. ${DEMO_MODELS_NOTE}.` });
}

export function TemplatesMenu() {
  const store = useStudioStore();
  const [open, setOpen] = useState(false);
  const { fitView } = useReactFlow();
  return (
    <div className="relative">
      <Button
        aria-label="Templates"
        aria-expanded={open}
        aria-haspopup="menu"
        onClick={() => {
          // Start loading the layout engine while the user picks a template.
          void loadElk();
          setOpen(!open);
        }}
      >
        New from template
      </Button>
      {open ? (
        <div
          role="menu"
          aria-label="Templates"
          className="absolute left-0 z-20 mt-1 flex w-80 flex-col rounded border border-border bg-surface p-1 text-xs shadow"
        >
          {STUDIO_TEMPLATES.map((template) => (
            <button
              key={template.id}
              type="button"
              role="menuitem"
              className="rounded px-2 py-1.5 text-left hover:bg-surface-muted"
              onClick={() => {
                setOpen(false);
                // Frame the new document once React Flow has measured its nodes.
                void applyTemplate(store, template).then(() =>
                  requestAnimationFrame(() => void fitView(FIT_VIEW_OPTIONS)),
                );
              }}
            >
              <span className="block font-medium">{template.label}</span>
              <span className="block text-muted">{template.description}</span>
            </button>
          ))}
          <p className="border-t border-border px-2 pt-1.5 pb-1 text-muted">{DEMO_MODELS_NOTE}</p>
        </div>
      ) : null}
    </div>
  );
}
