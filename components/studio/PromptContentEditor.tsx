"use client";
// The content of a prompt: plain text, or a list of parts (text, include another prompt, env value).
// Plain text can be split into parts; parts are added, edited and removed one by one.
import { FieldGroup, InlineButton, SelectField, TextField } from "./fields";
import { asObject, type NodeEditor, nameOptions, text } from "./useNodeEditor";

type Part = Record<string, unknown>;

const NEW_PART: Record<string, Part> = {
  text: { type: "text", content: "" },
  include: { type: "include", prompt: "" },
  env: { type: "env", property: "" },
};

function PartField({
  editor,
  part,
  index,
  setPart,
}: {
  editor: NodeEditor;
  part: Part;
  index: number;
  setPart(part: Part): void;
}) {
  const errors = editor.errorsAt(`.prompt[${index}]`);
  const label = `Part ${index + 1}`;
  switch (part.type) {
    case "include":
      return (
        <SelectField
          field="prompt.prompt.include"
          label={`${label}: include prompt`}
          value={text(part.prompt)}
          options={nameOptions(editor.graph, "prompt", "(choose a prompt)")}
          onChange={(prompt) => setPart({ ...part, prompt })}
          errors={errors}
        />
      );
    case "env":
      return (
        <TextField
          field="prompt.prompt.env"
          label={`${label}: env variable`}
          value={text(part.property)}
          onChange={(property) => setPart({ ...part, property })}
          errors={errors}
        />
      );
    default:
      return (
        <TextField
          field="prompt.prompt.text"
          label={`${label}: text`}
          multiline
          value={text(part.content)}
          onChange={(content) => setPart({ ...part, content })}
          errors={errors}
        />
      );
  }
}

export function PromptContentEditor({ editor }: { editor: NodeEditor }) {
  const content = editor.definition.prompt;
  const setContent = (value: unknown) => editor.setField("prompt", value);
  if (!Array.isArray(content)) {
    return (
      <div className="flex flex-col gap-1">
        <TextField
          field="prompt.prompt"
          label="Prompt text"
          multiline
          value={text(content)}
          onChange={setContent}
          errors={editor.errorsAt(".prompt")}
        />
        <InlineButton onClick={() => setContent([{ type: "text", content: text(content) }])}>
          Split into parts (to include prompts or env values)
        </InlineButton>
      </div>
    );
  }
  const parts = content.map((part) => asObject(part) ?? {});
  const replace = (index: number, part: Part | undefined) => {
    const next = parts.slice();
    if (part === undefined) next.splice(index, 1);
    else next[index] = part;
    setContent(next);
  };
  return (
    <FieldGroup title="Prompt parts">
      <div data-field="prompt.prompt" className="flex flex-col gap-2">
        {parts.map((part, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity but their position.
          <div key={index} className="flex flex-col gap-0.5">
            <PartField editor={editor} part={part} index={index} setPart={(next) => replace(index, next)} />
            <InlineButton onClick={() => replace(index, undefined)}>Remove part {index + 1}</InlineButton>
          </div>
        ))}
        <div className="flex gap-3">
          {Object.entries(NEW_PART).map(([type, part]) => (
            <InlineButton key={type} onClick={() => setContent([...parts, part])}>
              Add {type} part
            </InlineButton>
          ))}
        </div>
        {parts.every((part) => part.type === "text") ? (
          <InlineButton onClick={() => setContent(parts.map((part) => text(part.content)).join(""))}>
            Join into plain text
          </InlineButton>
        ) : null}
      </div>
    </FieldGroup>
  );
}
