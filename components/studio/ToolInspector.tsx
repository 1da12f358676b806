"use client";
// Inspector for a function tool: a built-in filesystem tool, an HTTP call, a server tool module or
// a tool of a configured MCP server, with the JSON Schema of its arguments.
import { TOOL_DESCRIPTION_HINT } from "@/lib/codegen";
import { BUILTIN_TOOLS, HTTP_METHODS } from "@/lib/standard";
import { renameDefinition, replaceDefinition } from "@/lib/studio/document-edits";
import { mcpServerOptions, mcpToolOptions, NO_MCP_SERVERS_TEXT } from "@/lib/studio/mcp-listing";
import { switchToolKind, type ToolKind } from "@/lib/studio/tool-kinds";
import { HeadersField, JsonField, NumberField, SelectField, TextField } from "./fields";
import { useMcpServers } from "./useMcpServers";
import { type NodeEditor, text, useNodeEditor } from "./useNodeEditor";

const KINDS: { value: ToolKind; label: string }[] = [
  { value: "builtin", label: "builtin (thread filesystem)" },
  { value: "http", label: "http (call a URL)" },
  { value: "code", label: "code (server tool module)" },
  { value: "mcp", label: "mcp (a configured MCP server)" },
];

/**
 * An MCP tool's server and tool: pick lists of what this server configures and lists; typed text
 * while the listing is not there (or for a server configured elsewhere), and how to add a server
 * when none is configured.
 */
function McpFields({ editor }: { editor: NodeEditor }) {
  const servers = useMcpServers();
  const { bind } = editor;
  const server = text(editor.definition.server);
  if (servers === null || servers.length === 0) {
    return (
      <>
        <TextField
          field="tool.server"
          label="MCP server id"
          hint={servers === null ? "A server of the server's extensions/mcp.json." : undefined}
          {...bind.text("server")}
        />
        {servers !== null ? (
          <p data-testid="no-mcp-servers" className="text-[11px] leading-snug text-muted">
            {NO_MCP_SERVERS_TEXT}
          </p>
        ) : null}
        <TextField
          field="tool.tool"
          label="Tool (empty: every tool of the server)"
          {...bind.optionalText("tool")}
        />
      </>
    );
  }
  return (
    <>
      <SelectField
        field="tool.server"
        label="MCP server id"
        hint="The servers this server configures (extensions/mcp.json)."
        options={mcpServerOptions(servers)}
        {...bind.text("server")}
      />
      <SelectField
        field="tool.tool"
        label="Tool (empty: every tool of the server)"
        options={mcpToolOptions(servers, server)}
        {...bind.optionalText("tool")}
      />
    </>
  );
}

export function ToolInspector({ nodeId }: { nodeId: string }) {
  const editor = useNodeEditor(nodeId);
  const { definition, bind } = editor;
  const kind = text(definition.kind);
  // The new kind's defaults (those of the palette's presets); a description or argument schema the
  // user wrote is kept. One undo step brings the previous kind's fields back.
  const switchKind = (next: string) => {
    const nextKind = KINDS.find((option) => option.value === next)?.value;
    if (!nextKind) return;
    editor.edit(
      (document) => replaceDefinition(document, nodeId, switchToolKind(definition, nextKind)),
      "kind",
    );
  };
  return (
    <div className="flex flex-col gap-2">
      <TextField
        field="tool.name"
        label="Name"
        {...bind.text("name")}
        onChange={(name) => editor.edit((document) => renameDefinition(document, nodeId, name), "name")}
      />
      <TextField
        field="tool.description"
        label="Description"
        multiline
        placeholder={TOOL_DESCRIPTION_HINT}
        {...bind.text("description")}
      />
      <SelectField
        field="tool.kind"
        label="Kind"
        options={KINDS}
        {...bind.text("kind")}
        onChange={switchKind}
      />
      {kind === "builtin" ? (
        <SelectField
          field="tool.builtin"
          label="Built-in tool"
          options={BUILTIN_TOOLS.map((name) => ({ value: name, label: name }))}
          {...bind.text("builtin")}
        />
      ) : null}
      {kind === "code" ? (
        <TextField
          field="tool.module"
          label="Module id"
          hint='e.g. "weather" or "billing/create_invoice".'
          {...bind.text("module")}
        />
      ) : null}
      {kind === "mcp" ? <McpFields editor={editor} /> : null}
      {kind === "http" ? (
        <>
          <SelectField
            field="tool.method"
            label="Method"
            options={HTTP_METHODS.map((method) => ({ value: method, label: method }))}
            {...bind.text("method")}
          />
          <TextField
            field="tool.url"
            label="URL"
            hint="{argName} is replaced by the URI-encoded argument."
            {...bind.text("url")}
          />
          <HeadersField field="tool.headers" label="Headers" {...bind.json("headers")} />
          <NumberField field="tool.timeoutMs" label="Timeout (ms)" {...bind.number("timeoutMs")} />
        </>
      ) : null}
      <JsonField
        field="tool.args"
        label={
          kind === "builtin"
            ? "Arguments schema (ignored: built-ins have fixed arguments)"
            : kind === "mcp"
              ? "Arguments schema (the server's own schema is used when it lists the tool)"
              : "Arguments schema (JSON Schema)"
        }
        expect="object"
        {...bind.json("args")}
      />
    </div>
  );
}
