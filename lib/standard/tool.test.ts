import { describe, expect, it } from "vitest";
import { ToolDefinitionSchema, urlPlaceholders } from "./tool";

const httpTool = {
  name: "get_weather",
  description: "Current weather for a city.",
  kind: "http",
  method: "GET",
  url: "https://api.example.com/weather/{city}",
  args: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("ToolDefinition", () => {
  it("accepts an http tool with literal and env headers", () => {
    const tool = {
      ...httpTool,
      headers: { Accept: "application/json", Authorization: { env: "WEATHER_TOKEN", prefix: "Bearer " } },
      timeoutMs: 5000,
    };
    expect(ToolDefinitionSchema.parse(tool)).toEqual(tool);
  });

  it("rejects an unknown method, an invalid header name and a non-positive timeout", () => {
    expect(ToolDefinitionSchema.safeParse({ ...httpTool, method: "HEAD" }).success).toBe(false);
    expect(ToolDefinitionSchema.safeParse({ ...httpTool, headers: { "Bad Header": "x" } }).success).toBe(
      false,
    );
    expect(ToolDefinitionSchema.safeParse({ ...httpTool, timeoutMs: 0 }).success).toBe(false);
  });

  it("accepts each built-in filesystem tool and nothing else", () => {
    for (const builtin of ["fs_read", "fs_write", "fs_list", "fs_delete", "fs_grep"]) {
      const tool = { name: "files", description: "Files", kind: "builtin", builtin };
      expect(ToolDefinitionSchema.parse(tool), builtin).toEqual(tool);
    }
    expect(
      ToolDefinitionSchema.safeParse({ name: "x", description: "x", kind: "builtin", builtin: "shell" })
        .success,
    ).toBe(false);
  });

  it("accepts a code tool naming a module id, and rejects paths, extensions and code", () => {
    const tool = {
      name: "invoice",
      description: "Create an invoice.",
      kind: "code",
      module: "billing/create_invoice",
    };
    expect(ToolDefinitionSchema.parse(tool)).toEqual(tool);
    for (const module of ["../secrets", "billing.js", "export default () => 1", "/abs"]) {
      expect(ToolDefinitionSchema.safeParse({ ...tool, module }).success, module).toBe(false);
    }
  });

  it("requires a non-blank description", () => {
    const result = ToolDefinitionSchema.safeParse({ ...httpTool, description: "   " });
    expect(result.error?.issues[0]).toMatchObject({ path: ["description"], params: { code: "empty_value" } });
  });

  it("rejects an unknown kind with a message listing the kinds", () => {
    const result = ToolDefinitionSchema.safeParse({ ...httpTool, kind: "shell" });
    expect(result.error?.issues[0]).toMatchObject({
      path: ["kind"],
      message: expect.stringContaining('"http", "builtin", "code" or "mcp"'),
    });
  });

  it("accepts an MCP tool naming a server id, and refuses a server that looks like a command", () => {
    expect(
      ToolDefinitionSchema.safeParse({
        name: "calc",
        description: "Calculator.",
        kind: "mcp",
        server: "calc",
      }).success,
    ).toBe(true);
    const command = ToolDefinitionSchema.safeParse({
      name: "calc",
      description: "Calculator.",
      kind: "mcp",
      server: "node ./server.js",
    });
    expect(command.error?.issues[0]).toMatchObject({
      path: ["server"],
      message: expect.stringContaining("Definitions never hold commands"),
    });
  });

  it.each(["apiKey", "token", "password"])(
    "rejects a literal %s on a tool and points to env headers",
    (field) => {
      const result = ToolDefinitionSchema.safeParse({ ...httpTool, [field]: "abc" });
      expect(result.error?.issues).toEqual([
        expect.objectContaining({
          path: [field],
          params: { code: "literal_secret" },
          message: expect.stringContaining('{ "env"'),
        }),
      ]);
    },
  );
});

describe("urlPlaceholders", () => {
  it("lists {name} placeholders in order", () => {
    expect(urlPlaceholders("https://x.test/{org}/repos/{repo}?q={org}")).toEqual(["org", "repo", "org"]);
    expect(urlPlaceholders("https://x.test/")).toEqual([]);
  });
});
