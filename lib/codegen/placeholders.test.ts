import { describe, expect, it } from "vitest";
import { type Bundle, minimalChatBundle } from "@/lib/standard";
import { PROMPT_TOOL_DESCRIPTION_HINT, TOOL_DESCRIPTION_HINT, withoutPlaceholders } from "./placeholders";
import { bundleToProjectFiles } from "./project-files";
import { bundleToTypeScript } from "./write-typescript";

const withHints = (): Bundle => {
  const bundle = structuredClone(minimalChatBundle) as Bundle;
  bundle.prompts[0]!.toolDescription = PROMPT_TOOL_DESCRIPTION_HINT;
  bundle.tools = [
    { name: "lookup", kind: "code", module: "lookup", description: TOOL_DESCRIPTION_HINT },
  ] as Bundle["tools"];
  return bundle;
};

describe("withoutPlaceholders", () => {
  it("leaves the studio's hint texts out of prompts and tools", () => {
    const cleaned = withoutPlaceholders(withHints());
    expect(cleaned.prompts[0]).not.toHaveProperty("toolDescription");
    expect(cleaned.tools[0]).not.toHaveProperty("description");
    expect(bundleToTypeScript(cleaned)).not.toContain(PROMPT_TOOL_DESCRIPTION_HINT);
    const files = Object.values(bundleToProjectFiles(cleaned)).join("\n");
    expect(files).not.toContain(PROMPT_TOOL_DESCRIPTION_HINT);
    expect(files).not.toContain(TOOL_DESCRIPTION_HINT);
  });

  it("returns a bundle with only written descriptions as it is", () => {
    const bundle = structuredClone(minimalChatBundle) as Bundle;
    expect(withoutPlaceholders(bundle)).toBe(bundle);
  });
});
