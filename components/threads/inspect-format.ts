// Pure formatting for the thread inspector (model calls, tool calls, files), kept apart so it is easy to test.

/** `850 ms`, `1.25 s`, `2m 03s` for a duration in milliseconds; `—` when unknown. */
export function formatMilliseconds(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/** `512 B`, `1.5 KB`, `2.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Pretty JSON for any value; a string that holds JSON is parsed first, other strings are shown as they are. */
export function formatJson(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A logged message's content as text: strings as they are, text parts joined, images as a marker. */
export function messageContentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        if (part && typeof part === "object") {
          const record = part as Record<string, unknown>;
          if (typeof record.text === "string") return record.text;
          if (record.type === "image") return `[image ${String(record.mimeType ?? "")}]`.replace(" ]", "]");
        }
        return formatJson(part);
      })
      .join("\n");
  }
  if (content === null || content === undefined) return "";
  return formatJson(content);
}

/** `A`/`B` for the two sides of a dual agent, with the display label when one is known. */
export function formatSide(side: string, labels?: { a: string; b: string } | null): string {
  const key = side.toLowerCase();
  if (labels && (key === "a" || key === "b")) return labels[key];
  return side.toUpperCase();
}
