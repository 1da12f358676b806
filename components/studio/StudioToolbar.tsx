"use client";
// Toolbar: templates, add nodes, edit the selection (copy, paste, duplicate, delete), undo/redo,
// auto layout, the command palette, shortcuts and models, then save, export and run. Buttons run
// the same commands as the keyboard and the palette.
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/Button";
import { canRedo, canUndo } from "@/lib/studio/history";
import { runsOnDemoModels } from "@/lib/studio/model-switch";
import { isSelectionEmpty } from "@/lib/studio/selection";
import { ariaKeyShortcuts } from "@/lib/studio/shortcuts";
import { RunButton } from "./RunButton";
import { useStudio } from "./StudioStoreContext";
import { type StudioCommandContext, studioCommand } from "./studio-commands";
import { TemplatesMenu } from "./TemplatesMenu";

function ExportMenu({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  const base = `/api/projects/${encodeURIComponent(projectId)}/export`;
  return (
    <div className="relative">
      <Button aria-expanded={open} onClick={() => setOpen(!open)}>
        Export
      </Button>
      {open ? (
        <div className="absolute right-0 z-10 mt-1 flex w-48 flex-col rounded border border-border bg-surface p-1 text-xs shadow">
          <a className="rounded px-2 py-1 hover:bg-surface-muted" href={`${base}?format=ts`} download>
            TypeScript module (.ts)
          </a>
          <a className="rounded px-2 py-1 hover:bg-surface-muted" href={`${base}?format=zip`} download>
            Standard Agents project (.zip)
          </a>
        </div>
      ) : null}
    </div>
  );
}

/** A toolbar button for one command: its label, its shortcut for assistive tech, its action. */
function CommandButton({
  id,
  context,
  disabled = false,
  label,
  children,
  tone,
}: {
  id: string;
  context: StudioCommandContext;
  disabled?: boolean;
  label?: string;
  children?: ReactNode;
  tone?: "primary" | "secondary";
}) {
  const command = studioCommand(id);
  return (
    <Button
      tone={tone}
      size={tone === "primary" ? "normal" : "compact"}
      aria-label={label}
      aria-keyshortcuts={command.keys ? ariaKeyShortcuts(command.keys) : undefined}
      disabled={disabled}
      onClick={() => void command.run(context)}
    >
      {children ?? command.label}
    </Button>
  );
}

const Divider = () => <span className="mx-1 h-5 w-px bg-border" />;

export function StudioToolbar({ context }: { context: StudioCommandContext }) {
  const history = useStudio((state) => state.history);
  const baseVersion = useStudio((state) => state.baseVersion);
  const selection = useStudio((state) => state.selection);
  const demoModels = useStudio((state) => runsOnDemoModels(state.history.present));
  const noNodes = selection.nodeIds.length === 0;
  return (
    <div
      role="toolbar"
      aria-label="Studio tools"
      className="flex flex-wrap items-center gap-1.5 border-b border-border bg-surface px-3 py-1.5"
    >
      <TemplatesMenu />
      {["agent", "prompt", "tool", "model", "note"].map((kind) => (
        <CommandButton key={kind} id={`add-${kind}`} context={context} />
      ))}
      <Divider />
      <CommandButton id="copy" context={context} disabled={noNodes} />
      <CommandButton id="paste" context={context} />
      <CommandButton id="duplicate" context={context} disabled={noNodes} />
      <CommandButton id="delete" context={context} disabled={isSelectionEmpty(selection)}>
        Delete
      </CommandButton>
      <Divider />
      <CommandButton id="undo" context={context} disabled={!canUndo(history)} />
      <CommandButton id="redo" context={context} disabled={!canRedo(history)} />
      <CommandButton id="auto-layout" context={context} />
      <Divider />
      <CommandButton id="palette" context={context} />
      <CommandButton id="shortcuts" context={context} label="Keyboard shortcuts">
        <span aria-hidden="true">?</span>
      </CommandButton>
      <CommandButton id="models" context={context} label="Models">
        Models
        {demoModels ? (
          <span className="rounded bg-surface-muted px-1 text-[10px] uppercase tracking-wide text-muted">
            demo
          </span>
        ) : null}
      </CommandButton>
      <CommandButton id="history" context={context} label="History">
        History
      </CommandButton>
      <span className="ml-auto text-xs text-muted">
        {baseVersion ? `based on v${baseVersion}` : "not saved yet"}
      </span>
      <CommandButton id="save" context={context} tone="primary" />
      <ExportMenu projectId={context.projectId} />
      <RunButton />
    </div>
  );
}
