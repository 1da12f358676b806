// How inspector fields that are typed as text become values: comma-separated lists, NAME=value env
// lines, HTTP headers (with `${ENV_NAME}` for values read from the environment) and JSON. Each codec
// formats a value for the box and parses what the user typed, or says what is wrong with it.

export type ParsedText<Value> = { ok: true; value: Value | undefined } | { ok: false; message: string };

export interface TextCodec<Value> {
  format(value: Value | undefined): string;
  /** An empty box parses to `undefined` (the field is left out). */
  parse(text: string): ParsedText<Value>;
}

export const listCodec: TextCodec<string[]> = {
  format: (list) => (list ?? []).join(", "),
  parse: (text) => {
    const items = text
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
    return { ok: true, value: items.length ? items : undefined };
  },
};

/** Non-empty lines split at their first `separator`; a line without one is an error naming it. */
function parseLines(text: string, separator: string, example: string): ParsedText<[string, string][]> {
  const entries: [string, string][] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const at = line.indexOf(separator);
    if (at <= 0) return { ok: false, message: `Line ${index + 1}: write ${example}.` };
    entries.push([line.slice(0, at).trim(), line.slice(at + separator.length)]);
  }
  return { ok: true, value: entries.length ? entries : undefined };
}

export const envLinesCodec: TextCodec<Record<string, string>> = {
  format: (map) =>
    Object.entries(map ?? {})
      .map(([name, value]) => `${name}=${value}`)
      .join("\n"),
  parse: (text) => {
    const lines = parseLines(text, "=", "NAME=value");
    return lines.ok ? { ok: true, value: lines.value && Object.fromEntries(lines.value) } : lines;
  },
};

export type HeaderValueInput = string | { env: string; prefix?: string };

const ENV_REFERENCE = /^(.*)\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/s;

/** `Authorization: Bearer ${MY_TOKEN}` ⇄ `{ env: "MY_TOKEN", prefix: "Bearer " }`; other values stay literal. */
export const headersCodec: TextCodec<Record<string, HeaderValueInput>> = {
  format: (headers) =>
    Object.entries(headers ?? {})
      .map(([name, value]) =>
        typeof value === "string" ? `${name}: ${value}` : `${name}: ${value.prefix ?? ""}\${${value.env}}`,
      )
      .join("\n"),
  parse: (text) => {
    const lines = parseLines(text, ":", "Header-Name: value");
    if (!lines.ok || !lines.value) return lines.ok ? { ok: true, value: undefined } : lines;
    const headers: Record<string, HeaderValueInput> = {};
    for (const [name, raw] of lines.value) {
      const value = raw.trimStart();
      const reference = ENV_REFERENCE.exec(value);
      headers[name] = reference
        ? reference[1]
          ? { env: reference[2] ?? "", prefix: reference[1] }
          : { env: reference[2] ?? "" }
        : value;
    }
    return { ok: true, value: headers };
  },
};

export function jsonCodec<Value>(expect: "object" | "array"): TextCodec<Value> {
  return {
    format: (value) => (value === undefined ? "" : JSON.stringify(value, null, 2)),
    parse: (text) => {
      if (text.trim() === "") return { ok: true, value: undefined };
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        return { ok: false, message: `Not valid JSON yet: ${(error as Error).message}` };
      }
      const isArray = Array.isArray(value);
      const isObject = typeof value === "object" && value !== null && !isArray;
      if (expect === "array" ? !isArray : !isObject) {
        return { ok: false, message: `Write a JSON ${expect === "array" ? "array [ … ]" : "object { … }"}.` };
      }
      return { ok: true, value: value as Value };
    },
  };
}
