"use client";
// Inspector for a prompt: its text, model, chat inclusion and the callables in its tools list.
import { definitionName, isDefinitionNode, toolEdgeId, toolEntryName } from "@/lib/graph";
import { addToolEntry, promptToolEntries, renameDefinition, setToolEntry } from "@/lib/studio/document-edits";
import { CheckboxField, FieldGroup, SelectField, TextField } from "./fields";
import { useStudioStore } from "./StudioStoreContext";
import { nameOptions, orUndefined, text, useNodeEditor } from "./useNodeEditor";

function ToolsList({ nodeId }: { nodeId: string }) {
  const store = useStudioStore();
  const editor = useNodeEditor(nodeId);
  const node = editor.graph.nodes.find((candidate) => candidate.id === nodeId);
  if (!node || !isDefinitionNode(node)) return null;
  const entries = promptToolEntries(node);
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
                <span className={errors.length ? "text-danger" : ""}>{name}</span>
                <button
                  type="button"
                  className="ml-auto underline"
                  onClick={() => store.getState().select({ kind: "edge", id: edgeId })}
                >
                  Configure {name}
                </button>
                <button
                  type="button"
                  className="underline"
                  onClick={() =>
                    editor.edit((document) => setToolEntry(document, nodeId, index, undefined), "tools")
                  }
                >
                  Remove {name}
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
    </FieldGroup>
  );
}

export function PromptInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { definition, errorsAt, setField } = editor;
  return (
    <div className="flex flex-col gap-2">
      <TextField
        label="Name"
        value={text(definition.name)}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
        errors={errorsAt(".name")}
      />
      <TextField
        label="Tool description"
        value={text(definition.toolDescription)}
        onChange={(value) => setField("toolDescription", value)}
        errors={errorsAt(".toolDescription")}
      />
      {typeof definition.prompt === "string" || definition.prompt === undefined ? (
        <TextField
          label="Prompt text"
          multiline
          value={text(definition.prompt)}
          onChange={(value) => setField("prompt", value)}
          errors={errorsAt(".prompt")}
        />
      ) : (
        <p className="text-[11px] text-muted">This prompt is made of parts; the code pane shows them.</p>
      )}
      <SelectField
        label="Model"
        value={text(definition.model)}
        options={nameOptions(editor.graph, "model", "(choose a model)")}
        onChange={(value) => setField("model", value)}
        errors={errorsAt(".model")}
      />
      <CheckboxField
        label="Include chat"
        value={definition.includeChat === true}
        onChange={(value) => setField("includeChat", orUndefined(value))}
      />
      <ToolsList nodeId={nodeId} />
    </div>
  );
}
