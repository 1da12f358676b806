"use client";
// Inspector for a subagent edge: the whole SubagentToolConfig of the prompt's tools entry it stands
// for — blocking, immediate (with its display env names), optional branch, resumable, init* properties.
import type { GraphEdge } from "@/lib/graph";
import { FieldGroup, ListField, NumberField, OptionalBooleanField, SelectField, TextField } from "./fields";
import { asObject, fieldBinder, patchObject, text } from "./useNodeEditor";
import { type ToolEntryEditor, useToolEntryEditor } from "./useToolEntryEditor";

type Entry = Record<string, unknown>;

/** Writes one field of a nested config object, dropping the object when it is left empty. */
function nestedWriter(entryEditor: ToolEntryEditor, field: string, current: Entry, whenEmpty: unknown) {
  return (key: string, value: unknown) => {
    entryEditor.update(field, patchObject(current, key, value === "" ? undefined : value) ?? whenEmpty);
  };
}

function ImmediateFields({ entryEditor }: { entryEditor: ToolEntryEditor }) {
  const { entry, update, errorsAt } = entryEditor;
  const config = asObject(entry.immediate);
  const mode = config ? "config" : entry.immediate === true ? "yes" : entry.immediate === false ? "no" : "";
  const bind = fieldBinder(
    config ?? {},
    nestedWriter(entryEditor, "immediate", config ?? {}, true),
    entryEditor.editor,
    `${entryEditor.path}.immediate`,
  );
  return (
    <FieldGroup title="Immediate">
      <SelectField
        field="subagent.immediate"
        label="Immediate (started with the session)"
        value={mode}
        options={[
          { value: "", label: "Default (no)" },
          { value: "no", label: "No" },
          { value: "yes", label: "Yes" },
          { value: "config", label: "Yes, with names from env variables" },
        ]}
        onChange={(value) =>
          update("immediate", value === "" ? undefined : value === "config" ? { ...config } : value === "yes")
        }
        errors={errorsAt("immediate")}
      />
      {config ? (
        <>
          <TextField
            field="subagent.immediate.nameEnv"
            label="Name env variable"
            {...bind.optionalText("nameEnv")}
          />
          <TextField
            field="subagent.immediate.descriptionEnv"
            label="Description env variable"
            {...bind.optionalText("descriptionEnv")}
          />
          <ListField
            field="subagent.immediate.scopedEnv"
            label="Scoped env variables"
            {...bind.list("scopedEnv")}
          />
        </>
      ) : null}
    </FieldGroup>
  );
}

function ResumableFields({ entryEditor }: { entryEditor: ToolEntryEditor }) {
  const { entry, update, errorsAt } = entryEditor;
  const resumable = asObject(entry.resumable);
  const bind = fieldBinder(
    resumable ?? {},
    nestedWriter(entryEditor, "resumable", resumable ?? {}, undefined),
    entryEditor.editor,
    `${entryEditor.path}.resumable`,
  );
  return (
    <FieldGroup title="Resumable">
      <SelectField
        field="subagent.resumable"
        label="Resumable"
        value={resumable ? "yes" : entry.resumable === false ? "no" : ""}
        options={[
          { value: "", label: "Default (no)" },
          { value: "no", label: "No" },
          { value: "yes", label: "Yes (named instances that receive messages)" },
        ]}
        onChange={(value) =>
          update(
            "resumable",
            value === "yes" ? { receives_messages: "side_a" } : value === "no" ? false : undefined,
          )
        }
        errors={errorsAt("resumable")}
      />
      {resumable ? (
        <>
          <SelectField
            field="subagent.resumable.receives_messages"
            label="Receives messages"
            options={[
              { value: "side_a", label: "side_a" },
              { value: "side_b", label: "side_b" },
            ]}
            {...bind.text("receives_messages")}
          />
          <NumberField
            field="subagent.resumable.maxInstances"
            label="Max instances"
            {...bind.number("maxInstances")}
          />
          <SelectField
            field="subagent.resumable.parentCommunication"
            label="Parent communication"
            options={[
              { value: "", label: "Default (implicit)" },
              { value: "implicit", label: "implicit" },
              { value: "explicit", label: "explicit" },
            ]}
            {...bind.optionalText("parentCommunication")}
          />
        </>
      ) : null}
    </FieldGroup>
  );
}

export function SubagentEdgeInspector({ edge }: { edge: GraphEdge }) {
  const entryEditor = useToolEntryEditor(edge);
  const { entry, bind, editor } = entryEditor;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs">
        Subagent <span className="font-medium">{text(entry.name)}</span> called by{" "}
        <span className="font-medium">{text(editor.definition.name)}</span>
      </p>
      <OptionalBooleanField
        field="subagent.blocking"
        label="Blocking (the caller waits for the result)"
        defaultValue
        {...bind.boolean("blocking")}
      />
      <OptionalBooleanField
        field="subagent.requiresApproval"
        label="Needs a human's approval before each call"
        defaultValue={false}
        {...bind.boolean("requiresApproval")}
      />
      <ImmediateFields entryEditor={entryEditor} />
      <ResumableFields entryEditor={entryEditor} />
      <TextField
        field="subagent.optional"
        label="Optional (env variable that enables it)"
        {...bind.optionalText("optional")}
      />
      {(["initUserMessageProperty", "initAttachmentsProperty", "initAgentNameProperty"] as const).map(
        (field) => (
          <TextField key={field} field={`subagent.${field}`} label={field} {...bind.optionalText(field)} />
        ),
      )}
    </div>
  );
}
