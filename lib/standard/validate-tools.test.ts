import { describe, expect, it } from "vitest";
import { chatBundle, summarize } from "../../test/support/spec-fixtures";
import type { Bundle } from "./bundle";
import type { HttpToolDefinition } from "./tool";
import { validateBundle } from "./validate-bundle";

const weatherTool: HttpToolDefinition = {
  name: "get_weather",
  description: "Current weather for a city.",
  kind: "http",
  method: "GET",
  url: "https://api.example.com/weather/{city}",
  args: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  headers: { Accept: "application/json", "X-Api-Key": { env: "WEATHER_API_KEY" } },
};

function bundleWithTool(changes: Partial<HttpToolDefinition>): Bundle {
  const bundle = chatBundle();
  bundle.tools.push({ ...structuredClone(weatherTool), ...changes });
  return bundle;
}

describe("tool rules", () => {
  it("accepts a well-formed http tool with env headers", () => {
    expect(validateBundle(bundleWithTool({}))).toEqual([]);
  });

  it("invalid_url: a URL that is not absolute http(s)", () => {
    expect(summarize(validateBundle(bundleWithTool({ url: "api.example.com/weather/{city}" })))).toEqual([
      { severity: "error", code: "invalid_url", path: "tools[0].url" },
    ]);
    expect(summarize(validateBundle(bundleWithTool({ url: "file:///etc/{city}" })))).toEqual([
      { severity: "error", code: "invalid_url", path: "tools[0].url" },
    ]);
  });

  it("unknown_url_placeholder: a {placeholder} with no matching argument", () => {
    const diagnostics = validateBundle(bundleWithTool({ url: "https://api.example.com/{country}/{city}" }));
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "unknown_url_placeholder", path: "tools[0].url" },
    ]);
    expect(diagnostics[0]?.message).toContain("{country}");
  });

  it("literal_secret_header: a credential header with a literal value", () => {
    const diagnostics = validateBundle(bundleWithTool({ headers: { Authorization: "Bearer sk-123" } }));
    expect(summarize(diagnostics)).toEqual([
      { severity: "error", code: "literal_secret_header", path: "tools[0].headers.Authorization" },
    ]);
    expect(diagnostics[0]?.message).toContain('{ "env": "MY_API_TOKEN", "prefix": "Bearer " }');
  });

  it("builtin_args_ignored: args on a built-in tool", () => {
    const bundle = chatBundle();
    bundle.tools.push({
      name: "read_file",
      kind: "builtin",
      builtin: "fs_read",
      description: "Read a file.",
      args: { type: "object", properties: { path: { type: "string" } } },
    });
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "builtin_args_ignored", path: "tools[0].args" },
    ]);
  });

  it("required_property_not_defined: tool args requiring an undefined property", () => {
    const bundle = bundleWithTool({
      args: { type: "object", properties: { city: { type: "string" } }, required: ["city", "units"] },
    });
    expect(summarize(validateBundle(bundle))).toEqual([
      { severity: "warning", code: "required_property_not_defined", path: "tools[0].args.required[1]" },
    ]);
  });
});
