// Tool rules: HTTP URLs are well formed and only use declared arguments, secrets stay out of headers, schemas are coherent.
import type { PathSegment } from "./diagnostics";
import { schemaHasProperty, schemaPropertyNames } from "./json-schema";
import { isSecretHeaderName } from "./secrets";
import { type HttpToolDefinition, urlPlaceholders } from "./tool";
import type { ValidationContext, ValidationRule } from "./validation-context";

function checkHttpTool(context: ValidationContext, tool: HttpToolDefinition, index: number): void {
  const base: PathSegment[] = ["tools", index];
  const placeholders = urlPlaceholders(tool.url);
  const declared = schemaPropertyNames(tool.args);
  for (const placeholder of new Set(placeholders)) {
    if (schemaHasProperty(tool.args, placeholder)) continue;
    context.report(
      "error",
      "unknown_url_placeholder",
      [...base, "url"],
      `Tool "${tool.name}" URL uses {${placeholder}}, but its args define no "${placeholder}". ${declared.length > 0 ? `Use one of: ${declared.join(", ")}, or add` : "Add"} "${placeholder}" to the tool's args.`,
    );
  }
  const filled = tool.url.replaceAll(/\{[^{}]*\}/g, "placeholder");
  const url = URL.canParse(filled) ? new URL(filled) : undefined;
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    context.report(
      "error",
      "invalid_url",
      [...base, "url"],
      `Tool "${tool.name}" URL "${tool.url}" is not an absolute http(s) URL. Write it like "https://api.example.com/items/{id}".`,
    );
  }
  for (const [header, value] of Object.entries(tool.headers ?? {})) {
    if (typeof value !== "string" || !isSecretHeaderName(header)) continue;
    context.report(
      "error",
      "literal_secret_header",
      [...base, "headers", header],
      `Tool "${tool.name}" header "${header}" carries a literal credential, and definitions are stored and exported in plain text. Read it from an env variable instead: { "env": "MY_API_TOKEN", "prefix": "Bearer " }.`,
    );
  }
}

const toolDefinitions: ValidationRule = (context) => {
  context.bundle.tools.forEach((tool, index) => {
    if (tool.kind === "http") checkHttpTool(context, tool, index);
    if (tool.kind === "builtin" && tool.args !== undefined) {
      context.report(
        "warning",
        "builtin_args_ignored",
        ["tools", index, "args"],
        `Tool "${tool.name}" is the built-in ${tool.builtin}, whose arguments are fixed by the runtime, so these args are ignored. Remove them.`,
      );
    }
    const schema = tool.args;
    if (schema?.properties === undefined || tool.kind === "builtin") return;
    schema.required?.forEach((property, requiredIndex) => {
      if (schemaHasProperty(schema, property)) return;
      context.report(
        "warning",
        "required_property_not_defined",
        ["tools", index, "args", "required", requiredIndex],
        `Tool "${tool.name}" args require "${property}" but do not define it under "properties". Add the property or fix the name (defined: ${schemaPropertyNames(schema).join(", ") || "none"}).`,
      );
    });
  });
};

export const TOOL_RULES: readonly ValidationRule[] = [toolDefinitions];
