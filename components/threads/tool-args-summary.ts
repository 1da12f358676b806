// A tool call's arguments on one line, for lists where several calls of one tool must be told apart
// (the project's approval inbox): `path: "/out.md", content: "release notes"`, cut to a length, with
// the whole JSON kept for a tooltip.

export interface ToolArgsSummary {
  /** One line, at most `maxLength` characters (an ellipsis marks a cut). */
  line: string;
  /** The arguments as indented JSON, for the tooltip. */
  full: string;
}

function inline(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

export function summarizeToolArgs(args: unknown, maxLength = 80): ToolArgsSummary {
  const value = args ?? {};
  const full = JSON.stringify(value, null, 2) ?? String(value);
  const isRecord = typeof value === "object" && !Array.isArray(value);
  const line = isRecord
    ? Object.entries(value)
        .map(([key, entry]) => `${key}: ${inline(entry)}`)
        .join(", ")
    : inline(value);
  const text = line === "" ? "no arguments" : line;
  return { line: text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text, full };
}
