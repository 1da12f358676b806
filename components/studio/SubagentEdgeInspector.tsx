"use client";
// Inspector for a subagent edge: the SubagentToolConfig of the prompt's tools entry it stands for.
// An entry with nothing but its name is written back as the bare name.
import type { GraphEdge } from "@/lib/graph";
import { setToolEntry } from "@/lib/studio/document-edits";
import { CheckboxField, FieldGroup, NumberField, SelectField, TextField } from "./fields";
import { subagentEntry } from "./flow-elements";
import { orUndefined, text, useNodeEditor, whole } from "./useNodeEditor";

type Entry = Record<string, unknown>;

function compactEntry(entry: Entry): unknown {
  const fields = Object.entries(entry).filter(([, value]) => value !== undefined);
  return fields.length === 1 && fields[0]?.[0] === "name" ? entry.name : Object.fromEntries(fields);
}

export function SubagentEdgeInspector({ edge }: { edge: GraphEdge }) {
  const editor = useNodeEditor(edge.source);
  const entry = subagentEntry(edge, editor.graph);
  const index = edge.toolIndex ?? 0;
  const errorsAt = (field: string) => editor.errorsAt(`.tools[${index}].${field}`);
  const update = (field: string, value: unknown) =>
    editor.edit(
      (document) => setToolEntry(document, edge.source, index, compactEntry({ ...entry, [field]: value })),
      `tools[${index}].${field}`,
    );
  const resumable =
    entry.resumable && typeof entry.resumable === "object" ? (entry.resumable as Entry) : undefined;
  const updateResumable = (field: string, value: unknown) =>
    update("resumable", { ...resumable, [field]: value === "" ? undefined : value });
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs">
        Subagent <span className="font-medium">{text(entry.name)}</span> called by{" "}
        <span className="font-medium">{text(editor.definition.name)}</span>
      </p>
      <CheckboxField
        label="Blocking (the caller waits for the result)"
        value={entry.blocking !== false}
        onChange={(value) => update("blocking", value ? undefined : false)}
        errors={errorsAt("blocking")}
      />
      <CheckboxField
        label="Immediate (started with the session)"
        value={entry.immediate === true || (typeof entry.immediate === "object" && entry.immediate !== null)}
        onChange={(value) => update("immediate", orUndefined(value))}
        errors={errorsAt("immediate")}
      />
      <FieldGroup title="Resumable">
        <CheckboxField
          label="Resumable"
          value={resumable !== undefined}
          onChange={(value) => update("resumable", value ? { receives_messages: "side_a" } : undefined)}
          errors={errorsAt("resumable")}
        />
        {resumable ? (
          <>
            <SelectField
              label="Receives messages"
              value={text(resumable.receives_messages)}
              options={[
                { value: "side_a", label: "side_a" },
                { value: "side_b", label: "side_b" },
              ]}
              onChange={(value) => updateResumable("receives_messages", value)}
              errors={errorsAt("resumable.receives_messages")}
            />
            <NumberField
              label="Max instances"
              value={whole(resumable.maxInstances)}
              onChange={(value) => updateResumable("maxInstances", value)}
              errors={errorsAt("resumable.maxInstances")}
            />
            <SelectField
              label="Parent communication"
              value={text(resumable.parentCommunication) || "implicit"}
              options={[
                { value: "implicit", label: "implicit" },
                { value: "explicit", label: "explicit" },
              ]}
              onChange={(value) =>
                updateResumable("parentCommunication", value === "implicit" ? undefined : value)
              }
            />
          </>
        ) : null}
      </FieldGroup>
      <TextField
        label="Optional (env variable that enables it)"
        value={text(entry.optional)}
        onChange={(value) => update("optional", orUndefined(value))}
        errors={errorsAt("optional")}
      />
      {(["initUserMessageProperty", "initAttachmentsProperty", "initAgentNameProperty"] as const).map(
        (field) => (
          <TextField
            key={field}
            label={field}
            value={text(entry[field])}
            onChange={(value) => update(field, orUndefined(value))}
            errors={errorsAt(field)}
          />
        ),
      )}
    </div>
  );
}
