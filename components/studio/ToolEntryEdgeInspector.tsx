"use client";
// Inspector for the other edges that stand for a prompt's tools entry: a sub-prompt call
// (SubpromptConfig), a function tool (PromptToolConfig: env and options) and a handoff to an
// ai_human agent (HandoffConfig).
import type { GraphEdge } from "@/lib/graph";
import { JsonField, KeyValueField, OptionalBooleanField, TextField } from "./fields";
import { text } from "./useNodeEditor";
import { useToolEntryEditor } from "./useToolEntryEditor";

const TITLES: Partial<Record<GraphEdge["kind"], string>> = {
  subprompt: "Sub-prompt",
  tool: "Tool",
  handoff: "Handoff to",
};

export function ToolEntryEdgeInspector({ edge }: { edge: GraphEdge }) {
  const { entry, bind, editor } = useToolEntryEditor(edge);
  const initFields = (kind: "subprompt" | "handoff") =>
    (["initUserMessageProperty", "initAttachmentsProperty"] as const).map((field) => (
      <TextField key={field} field={`${kind}.${field}`} label={field} {...bind.optionalText(field)} />
    ));
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs">
        {TITLES[edge.kind]} <span className="font-medium">{text(entry.name)}</span> in the tools of{" "}
        <span className="font-medium">{text(editor.definition.name)}</span>
      </p>
      {edge.kind === "subprompt" ? (
        <>
          {initFields("subprompt")}
          <OptionalBooleanField
            field="subprompt.includeTextResponse"
            label="Include text response"
            defaultValue
            {...bind.boolean("includeTextResponse")}
          />
          <OptionalBooleanField
            field="subprompt.includeToolCalls"
            label="Include tool calls"
            defaultValue
            {...bind.boolean("includeToolCalls")}
          />
          <OptionalBooleanField
            field="subprompt.includeErrors"
            label="Include errors"
            defaultValue
            {...bind.boolean("includeErrors")}
          />
        </>
      ) : null}
      {edge.kind === "tool" ? (
        <>
          <KeyValueField field="toolEntry.env" label="Env for this tool" {...bind.map("env")} />
          <JsonField
            field="toolEntry.options"
            label="Options (JSON object)"
            expect="object"
            {...bind.json("options")}
          />
        </>
      ) : null}
      {edge.kind === "handoff" ? initFields("handoff") : null}
      {edge.kind === "tool" || edge.kind === "subprompt" || edge.kind === "handoff" ? (
        <OptionalBooleanField
          field={`${edge.kind === "tool" ? "toolEntry" : edge.kind}.requiresApproval`}
          label="Needs a human's approval before each call"
          defaultValue={false}
          {...bind.boolean("requiresApproval")}
        />
      ) : null}
    </div>
  );
}
