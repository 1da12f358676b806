"use client";
// Inspector for an agent: identity, turn limit, tool exposure and both sides.
import { renameDefinition } from "@/lib/studio/document-edits";
import { CheckboxField, FieldGroup, NumberField, SelectField, TextField } from "./fields";
import { type NodeEditor, nameOptions, orUndefined, text, useNodeEditor, whole } from "./useNodeEditor";

const AGENT_TYPES = [
  { value: "ai_human", label: "ai_human (AI and a human)" },
  { value: "dual_ai", label: "dual_ai (two AI sides)" },
];

function SideFields({ editor, side }: { editor: NodeEditor; side: "sideA" | "sideB" }) {
  const config = (editor.definition[side] ?? {}) as Record<string, unknown>;
  const letter = side === "sideA" ? "A" : "B";
  const at = (field: string) => editor.errorsAt(`.${side}.${field}`);
  return (
    <>
      <SelectField
        label={`Side ${letter} prompt`}
        value={text(config.prompt)}
        options={nameOptions(editor.graph, "prompt", "(choose a prompt)")}
        onChange={(value) => editor.setSideField(side, "prompt", value)}
        errors={at("prompt")}
      />
      <CheckboxField
        label={`Side ${letter} stops on response`}
        value={config.stopOnResponse !== false}
        onChange={(value) => editor.setSideField(side, "stopOnResponse", value ? undefined : false)}
        errors={at("stopOnResponse")}
      />
      <NumberField
        label={`Side ${letter} max steps`}
        value={whole(config.maxSteps)}
        onChange={(value) => editor.setSideField(side, "maxSteps", value)}
        errors={at("maxSteps")}
      />
      {(["sessionStop", "sessionFail", "sessionStatus"] as const).map((binding) => (
        <TextField
          key={binding}
          label={`Side ${letter} ${binding} tool`}
          value={text(
            typeof config[binding] === "object"
              ? (config[binding] as { name?: unknown }).name
              : config[binding],
          )}
          onChange={(value) => editor.setSideField(side, binding, orUndefined(value))}
          errors={at(binding)}
        />
      ))}
    </>
  );
}

export function AgentInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { definition, errorsAt, setField } = editor;
  const type = text(definition.type) || "ai_human";
  return (
    <div className="flex flex-col gap-2">
      <TextField
        label="Name"
        value={text(definition.name)}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
        errors={errorsAt(".name")}
      />
      <SelectField
        label="Type"
        value={type}
        options={AGENT_TYPES}
        onChange={(value) => setField("type", value)}
        errors={errorsAt(".type")}
      />
      <TextField
        label="Title"
        value={text(definition.title)}
        onChange={(value) => setField("title", orUndefined(value))}
      />
      <TextField
        label="Description"
        value={text(definition.description)}
        onChange={(value) => setField("description", orUndefined(value))}
      />
      <NumberField
        label="Max session turns"
        value={whole(definition.maxSessionTurns)}
        onChange={(value) => setField("maxSessionTurns", value)}
        errors={errorsAt(".maxSessionTurns")}
      />
      <CheckboxField
        label="Expose as tool"
        value={definition.exposeAsTool === true}
        onChange={(value) => setField("exposeAsTool", orUndefined(value))}
        errors={errorsAt(".exposeAsTool")}
      />
      <TextField
        label="Tool description"
        value={text(definition.toolDescription)}
        onChange={(value) => setField("toolDescription", orUndefined(value))}
        errors={errorsAt(".toolDescription")}
      />
      <FieldGroup title="Side A">
        <SideFields editor={editor} side="sideA" />
      </FieldGroup>
      <FieldGroup title="Side B">
        {definition.sideB === undefined ? (
          <button
            type="button"
            className="text-left text-xs underline"
            onClick={() => setField("sideB", { prompt: "" })}
          >
            Add side B
          </button>
        ) : (
          <>
            <SideFields editor={editor} side="sideB" />
            <button
              type="button"
              className="text-left text-xs underline"
              onClick={() => setField("sideB", undefined)}
            >
              Remove side B
            </button>
          </>
        )}
        {errorsAt(".sideB").length && definition.sideB === undefined ? (
          <p className="text-[11px] text-danger">{errorsAt(".sideB").join(" ")}</p>
        ) : null}
      </FieldGroup>
    </div>
  );
}
