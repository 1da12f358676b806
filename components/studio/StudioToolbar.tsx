"use client";
// Toolbar: templates, add nodes, edit the selection (copy, paste, duplicate, delete), undo/redo,
// auto layout, the command palette, shortcuts, models and history, then save, export and run.
// Buttons run the same commands as the keyboard and the palette. Secondary actions are icon buttons
// with tooltips; below 1200 px the edit and canvas groups fold into a "More" menu, so the toolbar
// is one row at every width (1280 to 1920 px measured) and Save, Export and Run are always in view.
import { type ReactNode, useSyncExternalStore } from "react";
import { Gated } from "@/components/access/Gated";
import { permission } from "@/components/access/permission";
import { useProjectAccess } from "@/components/access/useProjectAccess";
import { Button } from "@/components/ui/Button";
import { IconButton } from "@/components/ui/IconButton";
import { ICONS, type IconName } from "@/components/ui/icons";
import { Menu, MenuItem } from "@/components/ui/Popover";
import { canRedo, canUndo } from "@/lib/studio/history";
import { runsOnDemoModels } from "@/lib/studio/model-switch";
import { isSelectionEmpty } from "@/lib/studio/selection";
import { ariaKeyShortcuts, shortcutLabel } from "@/lib/studio/shortcuts";
import { ExportMenu } from "./ExportMenu";
import { isMacPlatform } from "./platform";
import { RunButton } from "./RunButton";
import { useStudio } from "./StudioStoreContext";
import { type StudioCommandContext, studioCommand } from "./studio-commands";
import { TemplatesMenu } from "./TemplatesMenu";

/** Narrower than this, the edit and canvas groups live in the "More" menu. */
const WIDE_TOOLBAR_QUERY = "(min-width: 1200px)";

function subscribeToWidth(onChange: () => void) {
  const query = window.matchMedia(WIDE_TOOLBAR_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True when the toolbar has room for every group (server render: assume it has). */
function useWideToolbar(): boolean {
  return useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(WIDE_TOOLBAR_QUERY).matches,
    () => true,
  );
}

/** An icon button for one command: its label as name and tooltip, its shortcut, its action. */
function CommandIconButton({
  id,
  icon,
  context,
  disabled = false,
}: {
  id: string;
  icon: IconName;
  context: StudioCommandContext;
  disabled?: boolean;
}) {
  const command = studioCommand(id);
  const key = command.keys?.[0];
  return (
    <IconButton
      icon={ICONS[icon]}
      label={command.label}
      shortcut={key ? shortcutLabel(key, isMacPlatform()) : undefined}
      aria-keyshortcuts={command.keys ? ariaKeyShortcuts(command.keys) : undefined}
      disabled={disabled}
      onClick={() => void command.run(context)}
    />
  );
}

const Divider = () => <span aria-hidden="true" className="mx-1 h-5 w-px shrink-0 bg-border" />;

function Group({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar group is a role, not a fieldset.
    <div role="group" aria-label={label} className="flex shrink-0 items-center gap-0.5">
      {children}
    </div>
  );
}

interface SecondaryCommand {
  id: string;
  icon: IconName;
  disabled: boolean;
}

/** The edit and canvas commands folded into one menu for narrow screens. */
function MoreMenu({ groups, context }: { groups: SecondaryCommand[][]; context: StudioCommandContext }) {
  const mac = isMacPlatform();
  return (
    <Menu
      label="More actions"
      className="w-60"
      trigger={(props) => (
        <IconButton {...props} icon={ICONS.more} label="More actions" aria-haspopup="menu" />
      )}
    >
      {groups.map((group, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the groups are a fixed list.
        <div key={index} role="none" className={index > 0 ? "mt-1 border-t border-border pt-1" : ""}>
          {group.map(({ id, icon, disabled }) => {
            const command = studioCommand(id);
            const key = command.keys?.[0];
            return (
              <MenuItem key={id} disabled={disabled} onSelect={() => void command.run(context)}>
                <span className="flex items-center gap-2">
                  {ICONS[icon]}
                  {command.label}
                </span>
                {key ? <span className="text-muted">{shortcutLabel(key, mac)}</span> : null}
              </MenuItem>
            );
          })}
        </div>
      ))}
    </Menu>
  );
}

export function StudioToolbar({ context }: { context: StudioCommandContext }) {
  // Booleans, not the history itself: the history changes on every frame of a drag, and the
  // toolbar (with its tooltips and menus) should not re-render for that.
  const undoable = useStudio((state) => canUndo(state.history));
  const redoable = useStudio((state) => canRedo(state.history));
  const baseVersion = useStudio((state) => state.baseVersion);
  const selection = useStudio((state) => state.selection);
  const demoModels = useStudio((state) => runsOnDemoModels(state.history.present));
  const wide = useWideToolbar();
  const noNodes = selection.nodeIds.length === 0;
  const edit: SecondaryCommand[] = [
    { id: "copy", icon: "copy", disabled: noNodes },
    { id: "paste", icon: "paste", disabled: false },
    { id: "duplicate", icon: "duplicate", disabled: noNodes },
    { id: "delete", icon: "delete", disabled: isSelectionEmpty(selection) },
  ];
  const canvas: SecondaryCommand[] = [
    { id: "undo", icon: "undo", disabled: !undoable },
    { id: "redo", icon: "redo", disabled: !redoable },
    { id: "auto-layout", icon: "layout", disabled: false },
  ];
  const models = studioCommand("models");
  return (
    <div
      role="toolbar"
      aria-label="Studio tools"
      className="flex h-11 shrink-0 items-center gap-1.5 overflow-hidden border-b border-border bg-surface px-3"
    >
      <TemplatesMenu viewport={context.viewport} />
      <Divider />
      <Group label="Add nodes">
        {["agent", "prompt", "tool", "model", "note"].map((kind) => {
          const command = studioCommand(`add-${kind}`);
          return (
            <Button
              key={kind}
              size="compact"
              aria-label={command.label}
              className="border-transparent bg-transparent"
              onClick={() => void command.run(context)}
            >
              {ICONS.plus}
              <span className="capitalize">{kind}</span>
            </Button>
          );
        })}
      </Group>
      <Divider />
      {wide ? (
        <>
          <Group label="Edit">
            {edit.map((item) => (
              <CommandIconButton key={item.id} {...item} context={context} />
            ))}
          </Group>
          <Divider />
          <Group label="Canvas">
            {canvas.map((item) => (
              <CommandIconButton key={item.id} {...item} context={context} />
            ))}
          </Group>
        </>
      ) : (
        <>
          <Group label="Undo">
            <CommandIconButton id="undo" icon="undo" context={context} disabled={!undoable} />
            <CommandIconButton id="redo" icon="redo" context={context} disabled={!redoable} />
          </Group>
          <MoreMenu groups={[edit, canvas.filter((item) => item.id === "auto-layout")]} context={context} />
        </>
      )}
      <Divider />
      <Group label="Help and project">
        <CommandIconButton id="palette" icon="palette" context={context} />
        <CommandIconButton id="shortcuts" icon="keyboard" context={context} />
        <CommandIconButton id="history" icon="history" context={context} />
        <Button
          size="compact"
          title={demoModels ? "Models: this project runs on the scripted demo models" : models.label}
          className="ml-0.5"
          onClick={() => void models.run(context)}
        >
          {ICONS.models}
          Models
          {demoModels ? (
            <span className="rounded bg-surface-muted px-1 text-[11px] font-semibold uppercase tracking-wide text-muted">
              demo
            </span>
          ) : null}
        </Button>
      </Group>
      <span className="ml-auto shrink-0 whitespace-nowrap pl-2 text-xs text-muted">
        {baseVersion ? `based on v${baseVersion}` : "not saved yet"}
      </span>
      <Group label="Save, export and run">
        <SaveButton context={context} />
        <span className="w-1" />
        <ExportMenu projectId={context.projectId} />
        <span className="w-1" />
        <RunButton projectId={context.projectId} />
      </Group>
    </div>
  );
}

function SaveButton({ context }: { context: StudioCommandContext }) {
  const command = studioCommand("save");
  const unsaved = useStudio((state) => state.history.present !== state.savedDocument);
  // A viewer or runner may edit the canvas to try things, but not save it (the server says 403).
  const allowed = permission(useProjectAccess(context.projectId), "save");
  return (
    <Gated reason={allowed.ok ? null : allowed.reason}>
      <Button
        aria-keyshortcuts={command.keys ? ariaKeyShortcuts(command.keys) : undefined}
        title={allowed.ok ? `Save (${shortcutLabel("Mod+S", isMacPlatform())})` : undefined}
        disabled={!allowed.ok}
        onClick={() => void command.run(context)}
      >
        {unsaved ? <span aria-hidden="true" className="h-2 w-2 rounded-full bg-warning" /> : null}
        {command.label}
      </Button>
    </Gated>
  );
}
