"use client";
// Inspector for a prompt: its content, model, every option of PromptDefinition (chat and tool
// history, tool choice, structured output, reasoning, images, env, hooks, variables) and the
// callables in its tools list.
import { useState } from "react";
import { PROMPT_TOOL_DESCRIPTION_HINT } from "@/lib/codegen";
import { definitionName, isDefinitionNode, toolEdgeId, toolEntryName } from "@/lib/graph";
import { ToolChoiceSchema } from "@/lib/standard";
import { addToolEntry, promptToolEntries, renameDefinition, setToolEntry } from "@/lib/studio/document-edits";
import {
  FieldGroup,
  JsonField,
  KeyValueField,
  ListField,
  NumberField,
  OptionalBooleanField,
  SelectField,
  TextField,
} from "./fields";
import { PromptContentEditor } from "./PromptContentEditor";
import { useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";
import { type NodeEditor, nameOptions, useNodeEditor } from "./useNodeEditor";

const defaultOption = (label: string) => [{ value: "", label }];

/** Adds an entry by name: lifecycle tools of session bindings (approve, fail…) have no node to draw to. */
function AddToolByName({ editor, nodeId }: { editor: NodeEditor; nodeId: string }) {
  const [name, setName] = useState("");
  const add = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    editor.edit((document) => addToolEntry(document, nodeId, trimmed), `tools+${trimmed}`);
    setName("");
  };
  return (
    <div className="flex items-end gap-1">
      <TextField field="prompt.tools" label="Add tool by name" value={name} onChange={setName} />
      <button type="button" className="text-xs underline" onClick={add}>
        Add
      </button>
    </div>
  );
}

function ToolsList({ editor, nodeId }: { editor: NodeEditor; nodeId: string }) {
  const store = useStudioStore();
  const { edges } = useCompiled();
  const node = editor.graph.nodes.find((candidate) => candidate.id === nodeId);
  if (!node || !isDefinitionNode(node)) return null;
  const entries = promptToolEntries(node);
  const drawn = new Set(edges.map((edge) => edge.id));
  const listed = new Set(entries.map(toolEntryName));
  const callables = editor.graph.nodes
    .filter(isDefinitionNode)
    .filter((candidate) => candidate.type !== "model" && candidate.id !== nodeId)
    .map(definitionName)
    .filter((name) => name && !listed.has(name));
  return (
    <FieldGroup title="Tools">
      {entries.length === 0 ? (
        <p className="text-[11px] text-muted">No tools. Draw an edge to a tool, prompt or agent.</p>
      ) : null}
      <ul className="flex flex-col gap-1" aria-label="Prompt tools">
        {entries.map((entry, index) => {
          const name = toolEntryName(entry) ?? "(invalid entry)";
          const errors = editor.errorsAt(`.tools[${index}]`);
          const edgeId = toolEdgeId(nodeId, index);
          return (
            <li key={edgeId} className="flex flex-col text-xs">
              <div className="flex items-center gap-2">
                {/* The name shows once; the buttons say the verb and carry the name in their accessible name. */}
                <span className={`min-w-0 truncate ${errors.length ? "text-danger" : ""}`} title={name}>
                  {name}
                </span>
                {/* An entry with no node on the canvas (a built-in or lifecycle tool) has no edge to
                    configure: selecting one would select an edge nobody can see. */}
                {drawn.has(edgeId) ? (
                  <button
                    type="button"
                    className="ml-auto shrink-0 underline"
                    aria-label={`Configure ${name}`}
                    onClick={() => store.getState().select({ kind: "edge", id: edgeId })}
                  >
                    Configure
                  </button>
                ) : (
                  <span
                    className="ml-auto shrink-0 text-[11px] text-muted"
                    title="No node on the canvas, so no edge to configure"
                  >
                    no node
                  </span>
                )}
                <button
                  type="button"
                  className="shrink-0 underline"
                  aria-label={`Remove ${name}`}
                  onClick={() =>
                    editor.edit((document) => setToolEntry(document, nodeId, index, undefined), "tools")
                  }
                >
                  Remove
                </button>
              </div>
              {errors.map((message) => (
                <span key={message} className="text-[11px] text-danger">
                  {message}
                </span>
              ))}
            </li>
          );
        })}
      </ul>
      {callables.length ? (
        <SelectField
          field="prompt.tools"
          label="Add callable"
          value=""
          options={[
            { value: "", label: "(add a tool, prompt or agent)" },
            ...callables.map((name) => ({ value: name, label: name })),
          ]}
          onChange={(name) =>
            name && editor.edit((document) => addToolEntry(document, nodeId, name), `tools+${name}`)
          }
        />
      ) : null}
      <AddToolByName editor={editor} nodeId={nodeId} />
    </FieldGroup>
  );
}

function ReasoningFields({ editor }: { editor: NodeEditor }) {
  const bind = editor.bindNested("reasoning");
  return (
    <FieldGroup title="Reasoning">
      <SelectField
        field="prompt.reasoning.effort"
        label="Reasoning effort"
        options={[
          ...defaultOption("(provider default)"),
          ...["low", "medium", "high"].map((value) => ({ value, label: value })),
        ]}
        {...bind.optionalText("effort")}
      />
      <NumberField
        field="prompt.reasoning.maxTokens"
        label="Reasoning max tokens"
        {...bind.number("maxTokens")}
      />
      <OptionalBooleanField
        field="prompt.reasoning.include"
        label="Replay past reasoning"
        defaultValue={false}
        {...bind.boolean("include")}
      />
      <OptionalBooleanField
        field="prompt.reasoning.exclude"
        label="Hide reasoning text"
        defaultValue={false}
        {...bind.boolean("exclude")}
      />
    </FieldGroup>
  );
}

export function PromptInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { bind } = editor;
  return (
    <div className="flex flex-col gap-2">
      <TextField
        field="prompt.name"
        label="Name"
        {...bind.text("name")}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
      />
      <TextField
        field="prompt.toolDescription"
        label="Tool description"
        placeholder={PROMPT_TOOL_DESCRIPTION_HINT}
        {...bind.text("toolDescription")}
      />
      <PromptContentEditor editor={editor} />
      <SelectField
        field="prompt.model"
        label="Model"
        options={nameOptions(editor.graph, "model", "(choose a model)")}
        {...bind.text("model")}
      />
      <ToolsList editor={editor} nodeId={nodeId} />
      <FieldGroup title="Options">
        <OptionalBooleanField
          field="prompt.includeChat"
          label="Include chat"
          defaultValue={false}
          {...bind.boolean("includeChat")}
        />
        <OptionalBooleanField
          field="prompt.includePastTools"
          label="Include past tool calls"
          defaultValue={false}
          {...bind.boolean("includePastTools")}
        />
        <OptionalBooleanField
          field="prompt.parallelToolCalls"
          label="Parallel tool calls"
          defaultValue={false}
          {...bind.boolean("parallelToolCalls")}
        />
        <SelectField
          field="prompt.toolChoice"
          label="Tool choice"
          options={[
            ...defaultOption("Default (auto)"),
            ...ToolChoiceSchema.options.map((value) => ({ value, label: value })),
          ]}
          {...bind.optionalText("toolChoice")}
        />
        <NumberField
          field="prompt.recentImageThreshold"
          label="Recent image threshold"
          hint="How many recent messages keep their images (default 10)."
          {...bind.number("recentImageThreshold")}
        />
      </FieldGroup>
      <JsonField
        field="prompt.requiredSchema"
        label="Required schema (JSON Schema of the call's arguments)"
        expect="object"
        {...bind.json("requiredSchema")}
      />
      <JsonField
        field="prompt.variables"
        label="Variables (JSON array)"
        hint='[{ "name": "CUSTOMER_ID", "required": true, "type": "text" }]'
        expect="array"
        {...bind.json("variables")}
      />
      <ReasoningFields editor={editor} />
      <KeyValueField field="prompt.env" label="Env" {...bind.map("env")} />
      <ListField field="prompt.hooks" label="Hooks" {...bind.list("hooks")} />
    </div>
  );
}
