// The schemas' own messages, word for word: what a user reads when a definition breaks one of them.
import { describe, expect, it } from "vitest";
import { asJson, assetBundle, chatBundle } from "../../test/support/spec-fixtures";
import { JsonSchemaObjectSchema } from "./json-schema";
import { ModelDefinitionSchema, ScriptStepSchema } from "./model";
import { parseBundle } from "./parse-bundle";
import { PromptDefinitionSchema, PromptPartSchema } from "./prompt";
import { ToolDefinitionSchema } from "./tool";
import { HandoffConfigSchema, PromptToolConfigSchema, SubagentToolConfigSchema } from "./tool-entry";

const builtinTool = { name: "files", description: "Files.", kind: "builtin", builtin: "fs_read" };
const toolAdvice =
  'Store the secret in an env variable and send it with an env header, e.g. "headers": { "Authorization": { "env": "MY_API_TOKEN", "prefix": "Bearer " } }.';

function issues(result: { error?: { issues: unknown[] } }) {
  return result.error?.issues;
}

describe("tool schema messages", () => {
  it("an unknown kind lists the four kinds", () => {
    expect(issues(ToolDefinitionSchema.safeParse({ ...builtinTool, kind: "shell" }))).toEqual([
      expect.objectContaining({
        path: ["kind"],
        message: 'A tool\'s "kind" must be "http", "builtin", "code" or "mcp".',
      }),
    ]);
  });

  it("a blank description says what a description is for", () => {
    for (const description of ["", " \n"]) {
      expect(issues(ToolDefinitionSchema.safeParse({ ...builtinTool, description }))).toEqual([
        {
          code: "custom",
          path: ["description"],
          params: { code: "empty_value" },
          message: "A tool needs a description: say what it does, when to use it and what it returns.",
        },
      ]);
    }
    expect(ToolDefinitionSchema.safeParse({ ...builtinTool, description: " x " }).success).toBe(true);
  });

  it("a bad header name lists the characters a header name may have", () => {
    const tool = { name: "t", description: "d", kind: "http", method: "GET", url: "https://x.test" };
    const result = ToolDefinitionSchema.safeParse({ ...tool, headers: { "X Bad": "1" } });
    expect(issues(result)).toEqual([
      expect.objectContaining({
        path: ["headers", "X Bad"],
        issues: [
          expect.objectContaining({
            message: "Header names may only contain letters, digits and -_!#$%&'*+.^`|~.",
          }),
        ],
      }),
    ]);
    for (const name of ["X-Api_Version", "!#$%&'*+.^_`|~", "a1"])
      expect(ToolDefinitionSchema.safeParse({ ...tool, headers: { [name]: "1" } }).success, name).toBe(true);
    for (const name of ["", "a:b", "ä", "a\nb"])
      expect(ToolDefinitionSchema.safeParse({ ...tool, headers: { [name]: "1" } }).success, name).toBe(false);
  });

  it("a code tool's module and an MCP tool's server say what they must be", () => {
    const code = { name: "t", description: "d", kind: "code" };
    expect(issues(ToolDefinitionSchema.safeParse({ ...code, module: "a/../b" }))).toEqual([
      expect.objectContaining({
        path: ["module"],
        message:
          '"module" must be the id of a server-side tool module, like "weather" or "billing/create_invoice" (letters, digits, _ and -, separated by /). Definitions never hold code.',
      }),
    ]);
    for (const module of ["a", "a_b-c/D9", "a/b/c"])
      expect(ToolDefinitionSchema.safeParse({ ...code, module }).success, module).toBe(true);
    for (const module of ["", "a/", "/a", "a//b", "a b", "a/b.ts", "x\na"])
      expect(ToolDefinitionSchema.safeParse({ ...code, module }).success, module).toBe(false);
    const mcp = { name: "t", description: "d", kind: "mcp" };
    expect(issues(ToolDefinitionSchema.safeParse({ ...mcp, server: "npx server" }))).toEqual([
      expect.objectContaining({
        path: ["server"],
        message:
          '"server" must be the id of an MCP server configured in the server\'s extensions/mcp.json (letters, digits, _ and -). Definitions never hold commands.',
      }),
    ]);
    for (const server of ["calc", "my_server-2"])
      expect(ToolDefinitionSchema.safeParse({ ...mcp, server }).success, server).toBe(true);
    for (const server of ["", "a/b", "a b", "a.b", "x\na", "a\n"])
      expect(ToolDefinitionSchema.safeParse({ ...mcp, server }).success, server).toBe(false);
  });

  it.each(["apiKey", "api_key", "secret", "token", "password"])(
    "a literal %s on a tool points to env headers",
    (field) => {
      expect(issues(ToolDefinitionSchema.safeParse({ ...builtinTool, [field]: "x" }))).toEqual([
        {
          code: "custom",
          path: [field],
          params: { code: "literal_secret" },
          message: `"${field}" holds a literal secret, and definitions are stored and exported in plain text. ${toolAdvice}`,
        },
      ]);
    },
  );
});

describe("model schema messages", () => {
  const model = { name: "m", provider: "openai", model: "gpt" };

  it("a literal key on a model points to apiKeyEnv", () => {
    expect(issues(ModelDefinitionSchema.safeParse({ ...model, apiKey: "sk" }))).toEqual([
      expect.objectContaining({
        path: ["apiKey"],
        message:
          '"apiKey" holds a literal secret, and definitions are stored and exported in plain text. Store the key in an env variable and put that variable\'s name in "apiKeyEnv" (e.g. "apiKeyEnv": "OPENAI_API_KEY").',
      }),
    ]);
  });

  it("a secret-looking provider option points to apiKeyEnv", () => {
    expect(
      issues(ModelDefinitionSchema.safeParse({ ...model, providerOptions: { "API-Key": "sk" } })),
    ).toEqual([
      {
        code: "custom",
        path: ["providerOptions", "API-Key"],
        params: { code: "literal_secret" },
        message:
          '"API-Key" looks like a literal secret, and definitions are stored and exported in plain text. Name the env variable that holds it in "apiKeyEnv" instead.',
      },
    ]);
  });

  it("a baseURL that is not http(s) gives an example", () => {
    for (const baseURL of ["ftp://x.test", "not a url", "httpx://x.test"]) {
      expect(issues(ModelDefinitionSchema.safeParse({ ...model, baseURL })), baseURL).toEqual([
        expect.objectContaining({
          path: ["baseURL"],
          message: '"baseURL" must be an http(s) URL such as "https://api.example.com/v1".',
        }),
      ]);
    }
    for (const baseURL of ["http://localhost:8080/v1", "https://x.test"])
      expect(ModelDefinitionSchema.safeParse({ ...model, baseURL }).success, baseURL).toBe(true);
  });

  it("an empty script step names the three fields, and each one alone is enough", () => {
    expect(issues(ScriptStepSchema.safeParse({ delayMs: 1 }))).toEqual([
      {
        code: "custom",
        path: [],
        params: { code: "empty_script_step" },
        message: 'A script step needs at least one of "text", "toolCalls" or "error".',
      },
    ]);
    for (const step of [{ text: "" }, { toolCalls: [] }, { error: "" }])
      expect(ScriptStepSchema.safeParse(step).success, JSON.stringify(step)).toBe(true);
  });
});

describe("prompt and JSON Schema messages", () => {
  it("an unknown prompt part type lists the three types", () => {
    expect(issues(PromptPartSchema.safeParse({ type: "image" }))).toEqual([
      expect.objectContaining({
        path: ["type"],
        message: 'A prompt part\'s "type" must be "text", "include" or "env".',
      }),
    ]);
  });

  it("an argument schema that is not an object says to set type object", () => {
    expect(issues(JsonSchemaObjectSchema.safeParse({ type: "array" }))).toEqual([
      expect.objectContaining({
        path: ["type"],
        message: 'A JSON Schema for arguments must describe an object: set "type" to "object".',
      }),
    ]);
  });
});

describe("deprecated properties' advice", () => {
  it.each([
    ["endSessionTool", "sessionStop"],
    ["failSessionTool", "sessionFail"],
    ["statusTool", "sessionStatus"],
  ])("%s names %s as its replacement", (alias, current) => {
    const input = asJson(chatBundle()) as { agents: Array<{ sideA: Record<string, unknown> }> };
    input.agents[0]!.sideA[alias] = "finish";
    const result = parseBundle(input);
    expect(result.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      `Agent "assistant" in "sideA": "${alias}" is deprecated. It is the old name of "${current}" and was read as "${current}". Rename it to "${current}".`,
    ]);
    expect(result.bundle?.agents[0]?.sideA).toEqual({
      label: "Assistant",
      prompt: "assistant_chat",
      [current]: "finish",
    });
  });

  it("a prompt's exposeAsTool and a tools entry's tenvs say what to do", () => {
    const input = asJson(assetBundle()) as { prompts: Array<Record<string, unknown>> };
    input.prompts[3]!.exposeAsTool = false;
    input.prompts[1]!.tools = [{ name: "list_files", tenvs: { ROOT: "/" } }];
    const messages = parseBundle(input).diagnostics.map((diagnostic) => diagnostic.message);
    expect(messages).toEqual([
      expect.stringMatching(
        /"tenvs" is deprecated\. It was renamed "env" \(string values\)\. Move the values to "env"\.$/,
      ),
      expect.stringMatching(
        /"exposeAsTool" is deprecated\. Every prompt can be called as a tool now, so it has no effect\. Remove it\.$/,
      ),
    ]);
  });
});

describe("schema values at their edges", () => {
  it("a baseURL's protocol is exactly http or https", () => {
    const model = { name: "m", provider: "openai", model: "gpt" };
    for (const baseURL of ["xhttps://x.test", "httpsx://x.test"])
      expect(ModelDefinitionSchema.safeParse({ ...model, baseURL }).success, baseURL).toBe(false);
  });

  it("every value of the prompt, variable and resumable enums is accepted", () => {
    const prompt = { name: "p", toolDescription: "P", prompt: "x", model: "m" };
    for (const effort of ["low", "medium", "high"])
      expect(PromptDefinitionSchema.safeParse({ ...prompt, reasoning: { effort } }).success, effort).toBe(
        true,
      );
    for (const toolChoice of ["auto", "none", "required"])
      expect(PromptDefinitionSchema.safeParse({ ...prompt, toolChoice }).success, toolChoice).toBe(true);
    for (const type of ["text", "secret"])
      expect(
        PromptDefinitionSchema.safeParse({ ...prompt, variables: [{ name: "V", type }] }).success,
        type,
      ).toBe(true);
    for (const parentCommunication of ["implicit", "explicit"])
      expect(
        SubagentToolConfigSchema.safeParse({
          name: "c",
          resumable: { receives_messages: "side_a", parentCommunication },
        }).success,
        parentCommunication,
      ).toBe(true);
  });

  it("a handoff config keeps its init mappings and needs a name", () => {
    const config = { name: "human", initUserMessageProperty: "task", initAttachmentsProperty: "files" };
    expect(HandoffConfigSchema.parse(config)).toEqual(config);
    expect(HandoffConfigSchema.safeParse({}).success).toBe(false);
  });

  it("a secret-looking tool option says to pass an env variable's name", () => {
    expect(PromptToolConfigSchema.safeParse({ name: "t", options: { password: "x" } }).error?.issues).toEqual(
      [
        expect.objectContaining({
          path: ["options", "password"],
          message:
            '"password" looks like a literal secret, and definitions are stored and exported in plain text. Put the secret in an env variable and pass its name instead.',
        }),
      ],
    );
  });
});
