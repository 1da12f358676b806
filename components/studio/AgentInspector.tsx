"use client";
// Inspector for an agent: identity, turn limit, tool exposure, env, hooks, packaging metadata and
// both sides (prompt, label, stop behaviour, max steps, session bindings).
import { SESSION_BINDING_KEYS } from "@/lib/standard";
import { bindingOptions, SESSION_TOOL_HINT } from "@/lib/studio/binding-options";
import { renameDefinition } from "@/lib/studio/document-edits";
import {
  FieldGroup,
  InlineButton,
  KeyValueField,
  ListField,
  NumberField,
  OptionalBooleanField,
  SelectField,
  TextField,
} from "./fields";
import {
  asObject,
  fieldBinder,
  type NodeEditor,
  nameOptions,
  patchObject,
  text,
  useNodeEditor,
} from "./useNodeEditor";

const AGENT_TYPES = [
  { value: "ai_human", label: "ai_human (AI and a human)" },
  { value: "dual_ai", label: "dual_ai (two AI sides)" },
];

type Side = "sideA" | "sideB";

/**
 * One session binding (sessionStop / sessionFail / sessionStatus): a tool name, optionally with the
 * arguments that carry the message and the attachments. A name alone is stored as the bare string.
 */
function SessionBindingFields({
  editor,
  side,
  binding,
}: {
  editor: NodeEditor;
  side: Side;
  binding: string;
}) {
  const raw = asObject(editor.definition[side])?.[binding];
  const current = asObject(raw) ?? (typeof raw === "string" ? { name: raw } : {});
  const letter = side === "sideA" ? "A" : "B";
  const write = (field: string, value: unknown) => {
    const next = patchObject(current, field, value);
    editor.setSideField(side, binding, next && Object.keys(next).join() === "name" ? next.name : next);
  };
  const path = `.${side}.${binding}`;
  const bind = fieldBinder(current, write, editor, path);
  // The name's messages are the binding's, less those the property fields show themselves.
  const propertyErrors = new Set([
    ...editor.errorsAt(`${path}.messageProperty`),
    ...editor.errorsAt(`${path}.attachmentsProperty`),
  ]);
  return (
    <div className="flex flex-col gap-2" data-field={`agent.side.${binding}`}>
      <TextField
        field="agent.side.sessionBinding.name"
        label={`Side ${letter} ${binding} tool`}
        hint={`${SESSION_TOOL_HINT[binding] ?? ""} Pick a tool or type a new name (the AI gets a tool of that name).`}
        suggestions={bindingOptions(editor.graph, text(asObject(editor.definition[side])?.prompt), binding)}
        {...bind.optionalText("name")}
        errors={editor.errorsAt(path).filter((message) => !propertyErrors.has(message))}
      />
      {current.name !== undefined ? (
        <div className="grid grid-cols-2 items-end gap-1">
          <TextField
            field="agent.side.sessionBinding.messageProperty"
            label={`Side ${letter} ${binding} message property`}
            {...bind.optionalText("messageProperty")}
          />
          <TextField
            field="agent.side.sessionBinding.attachmentsProperty"
            label={`Side ${letter} ${binding} attachments property`}
            {...bind.optionalText("attachmentsProperty")}
          />
        </div>
      ) : null}
    </div>
  );
}

function SideFields({ editor, side }: { editor: NodeEditor; side: Side }) {
  const config = asObject(editor.definition[side]) ?? {};
  const letter = side === "sideA" ? "A" : "B";
  const bind = fieldBinder(
    config,
    (field, value) => editor.setSideField(side, field, value),
    editor,
    `.${side}`,
  );
  return (
    <>
      <SelectField
        field="agent.side.prompt"
        label={`Side ${letter} prompt`}
        options={nameOptions(editor.graph, "prompt", "(choose a prompt)")}
        {...bind.text("prompt")}
      />
      <TextField field="agent.side.label" label={`Side ${letter} label`} {...bind.optionalText("label")} />
      <OptionalBooleanField
        field="agent.side.stopOnResponse"
        label={`Side ${letter} stops on response`}
        defaultValue
        {...bind.boolean("stopOnResponse")}
      />
      <div className="grid grid-cols-2 items-end gap-1">
        <TextField
          field="agent.side.stopTool"
          label={`Side ${letter} stop tool`}
          suggestions={bindingOptions(editor.graph, text(config.prompt))}
          {...bind.optionalText("stopTool")}
        />
        <TextField
          field="agent.side.stopToolResponseProperty"
          label={`Side ${letter} stop tool response property`}
          {...bind.optionalText("stopToolResponseProperty")}
        />
      </div>
      <NumberField
        field="agent.side.maxSteps"
        label={`Side ${letter} max steps`}
        {...bind.number("maxSteps")}
      />
      {SESSION_BINDING_KEYS.map((binding) => (
        <SessionBindingFields key={binding} editor={editor} side={side} binding={binding} />
      ))}
    </>
  );
}

export function AgentInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { definition, errorsAt, setField, bind } = editor;
  return (
    <div className="flex flex-col gap-2">
      <TextField
        field="agent.name"
        label="Name"
        {...bind.text("name")}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
      />
      <SelectField
        field="agent.type"
        label="Type"
        options={AGENT_TYPES}
        {...bind.text("type")}
        value={text(definition.type) || "ai_human"}
      />
      <TextField field="agent.title" label="Title" {...bind.optionalText("title")} />
      <TextField field="agent.description" label="Description" {...bind.optionalText("description")} />
      <TextField
        field="agent.icon"
        label="Icon"
        hint="An emoji or an image URL."
        {...bind.optionalText("icon")}
      />
      <NumberField
        field="agent.maxSessionTurns"
        label="Max session turns"
        {...bind.number("maxSessionTurns")}
      />
      <OptionalBooleanField
        field="agent.exposeAsTool"
        label="Expose as tool"
        defaultValue={false}
        {...bind.boolean("exposeAsTool")}
      />
      <TextField
        field="agent.toolDescription"
        label="Tool description"
        {...bind.optionalText("toolDescription")}
      />
      <FieldGroup title="Side A">
        <SideFields editor={editor} side="sideA" />
      </FieldGroup>
      <FieldGroup title="Side B">
        {definition.sideB === undefined ? (
          <InlineButton onClick={() => setField("sideB", { prompt: "" })}>Add side B</InlineButton>
        ) : (
          <>
            <SideFields editor={editor} side="sideB" />
            <InlineButton onClick={() => setField("sideB", undefined)}>Remove side B</InlineButton>
          </>
        )}
        {errorsAt(".sideB").length && definition.sideB === undefined ? (
          <p className="text-[11px] text-danger">{errorsAt(".sideB").join(" ")}</p>
        ) : null}
      </FieldGroup>
      <KeyValueField field="agent.env" label="Env" {...bind.map("env")} />
      <ListField field="agent.hooks" label="Hooks" {...bind.list("hooks")} />
      <FieldGroup title="Packaging">
        <TextField field="agent.packageName" label="Package name" {...bind.optionalText("packageName")} />
        <TextField field="agent.version" label="Version" {...bind.optionalText("version")} />
        <TextField field="agent.author" label="Author" {...bind.optionalText("author")} />
        <TextField field="agent.license" label="License" {...bind.optionalText("license")} />
      </FieldGroup>
    </div>
  );
}
