"use client";
// Inspector for a model definition: provider, provider model id, endpoint, key variable name or
// project credential, fallbacks, prices, capabilities, provider options and tools, and the scripted provider's script and loop.
import { MODEL_PROVIDERS } from "@/lib/standard";
import { renameDefinition, replaceDefinition } from "@/lib/studio/document-edits";
import { switchModelProvider } from "@/lib/studio/model-switch";
import { CredentialPicker } from "./CredentialPicker";
import {
  FieldGroup,
  JsonField,
  ListField,
  NumberField,
  OptionalBooleanField,
  SelectField,
  TextField,
} from "./fields";
import { type NodeEditor, useNodeEditor } from "./useNodeEditor";

function CapabilitiesFields({ editor }: { editor: NodeEditor }) {
  const bind = editor.bindNested("capabilities");
  const flags = [
    ["vision", "Vision (reads images)"],
    ["functionCalling", "Function calling"],
    ["structuredOutputs", "Structured outputs"],
  ] as const;
  return (
    <FieldGroup title="Capabilities">
      {flags.map(([field, label]) => (
        <OptionalBooleanField
          key={field}
          field={`model.capabilities.${field}`}
          label={label}
          defaultValue={false}
          {...bind.boolean(field)}
        />
      ))}
      <NumberField
        field="model.capabilities.maxContextTokens"
        label="Max context tokens"
        {...bind.number("maxContextTokens")}
      />
      <NumberField
        field="model.capabilities.maxOutputTokens"
        label="Max output tokens"
        {...bind.number("maxOutputTokens")}
      />
    </FieldGroup>
  );
}

export function ModelInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { bind } = editor;
  return (
    <div className="flex flex-col gap-2">
      <TextField
        field="model.name"
        label="Name"
        {...bind.text("name")}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
      />
      <SelectField
        field="model.provider"
        label="Provider"
        options={MODEL_PROVIDERS.map((provider) => ({ value: provider, label: provider }))}
        {...bind.text("provider")}
        onChange={(provider) =>
          editor.edit(
            (document) =>
              replaceDefinition(document, nodeId, switchModelProvider(editor.definition, provider)),
            "provider",
          )
        }
      />
      <TextField field="model.model" label="Provider model id" {...bind.text("model")} />
      <TextField field="model.baseURL" label="Base URL" {...bind.optionalText("baseURL")} />
      <TextField
        field="model.apiKeyEnv"
        label="API key env variable"
        hint="The variable's name, never the key."
        {...bind.optionalText("apiKeyEnv")}
      />
      <CredentialPicker {...bind.optionalText("apiKeyCredential")} />
      <ListField field="model.fallbacks" label="Fallback models" {...bind.list("fallbacks")} />
      <FieldGroup title="Prices (per million tokens)">
        <NumberField field="model.inputPrice" label="Input price" step="any" {...bind.number("inputPrice")} />
        <NumberField
          field="model.outputPrice"
          label="Output price"
          step="any"
          {...bind.number("outputPrice")}
        />
        <NumberField
          field="model.cachedPrice"
          label="Cached input price"
          step="any"
          {...bind.number("cachedPrice")}
        />
      </FieldGroup>
      <CapabilitiesFields editor={editor} />
      <ListField
        field="model.includedProviders"
        label="Included providers"
        {...bind.list("includedProviders")}
      />
      <JsonField
        field="model.providerOptions"
        label="Provider options (JSON object)"
        expect="object"
        {...bind.json("providerOptions")}
      />
      <ListField field="model.providerTools" label="Provider tools" {...bind.list("providerTools")} />
      <JsonField
        field="model.script"
        label="Script (JSON array, scripted provider)"
        hint='[{ "text": "Hello {{input}}" }, { "toolCalls": [{ "name": "search", "args": {} }] }]'
        expect="array"
        {...bind.json("script")}
      />
      <NumberField
        field="model.scriptLoopFrom"
        label="Loop the script from step"
        hint="Empty: after the last step it answers “(script exhausted)”. 0 repeats the whole script."
        {...bind.number("scriptLoopFrom")}
      />
    </div>
  );
}
