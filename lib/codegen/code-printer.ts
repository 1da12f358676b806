// Prints generated code trees the way the project's formatter (Biome, 110 columns) would lay them
// out, so exported files are stable under `biome format` and read like hand-written code.

export const LINE_WIDTH = 110;

/** The few expression shapes the exporter generates. */
export type Code =
  | { kind: "literal"; text: string }
  | { kind: "object"; entries: Array<{ key: string; value: Code }>; expanded?: boolean }
  | { kind: "array"; items: Code[] }
  /** `base.name(args).name(args)…`, or `name(args)` when base is absent. */
  | { kind: "chain"; base?: string; calls: Array<{ name: string; args: Code[] }> };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export const literal = (text: string): Code => ({ kind: "literal", text });
export const call = (name: string, ...args: Code[]): Code => ({ kind: "chain", calls: [{ name, args }] });

export function stringCode(value: string): Code {
  return literal(value.includes("\n") ? templateLiteral(value) : stringLiteral(value));
}

export function numberCode(value: number): Code {
  if (Object.is(value, -0)) return literal("-0");
  // The formatter writes exponents without "+" (1e21, not 1e+21).
  return literal(String(value).replace("e+", "e"));
}

/** A JSON value as code: objects, arrays and primitives. */
export function jsonCode(value: unknown): Code {
  if (value === null) return literal("null");
  if (typeof value === "string") return stringCode(value);
  if (typeof value === "number") return numberCode(value);
  if (typeof value === "boolean") return literal(String(value));
  if (Array.isArray(value)) return { kind: "array", items: value.map(jsonCode) };
  if (typeof value === "object") {
    return {
      kind: "object",
      // Properties set to undefined do not exist in JSON; they are left out, as JSON.stringify does.
      entries: Object.entries(value)
        .filter(([, entry]) => entry !== undefined)
        .map(([key, entry]) => ({ key, value: jsonCode(entry) })),
    };
  }
  throw new TypeError(`Cannot write ${typeof value} as code: definitions hold JSON values only.`);
}

export function propertyKey(key: string): string {
  return IDENTIFIER.test(key) ? key : stringLiteral(key);
}

/** A quoted string, preferring double quotes unless single quotes need fewer escapes (as the formatter does). */
export function stringLiteral(value: string): string {
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  const quote = singles < doubles ? "'" : '"';
  let text = quote;
  for (const char of codeUnits(value)) {
    if (char === quote || char === "\\") text += `\\${char}`;
    else if (char === "\n") text += "\\n";
    else if (char === "\r") text += "\\r";
    else if (char === "\t") text += "\\t";
    else text += escapeInvisible(char);
  }
  return text + quote;
}

/** A template literal keeps multi-line prompts readable; `${`, backticks, backslashes and CR are escaped. */
export function templateLiteral(value: string): string {
  let text = "`";
  const units = codeUnits(value);
  for (let index = 0; index < units.length; index++) {
    const char = units[index]!;
    if (char === "`" || char === "\\") text += `\\${char}`;
    else if (char === "$" && units[index + 1] === "{") text += "\\$";
    else if (char === "\n" || char === "\t") text += char;
    else if (char === "\r") text += "\\r";
    else text += escapeInvisible(char);
  }
  return `${text}\``;
}

/** Splits into characters, keeping surrogate pairs together and lone surrogates apart. */
function codeUnits(value: string): string[] {
  return Array.from(value);
}

function escapeInvisible(char: string): string {
  const code = char.charCodeAt(0);
  const loneSurrogate = char.length === 1 && code >= 0xd800 && code <= 0xdfff;
  if (code < 0x20 || code === 0x7f || loneSurrogate || char === "\u2028" || char === "\u2029") {
    return `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return char;
}

/** The code on one line, or undefined when it must span several (an expanded object, a multi-line template). */
function flat(code: Code): string | undefined {
  switch (code.kind) {
    case "literal":
      return code.text.includes("\n") ? undefined : code.text;
    case "object": {
      if (code.expanded) return undefined;
      if (code.entries.length === 0) return "{}";
      const entries: string[] = [];
      for (const entry of code.entries) {
        const value = flat(entry.value);
        if (value === undefined) return undefined;
        entries.push(`${propertyKey(entry.key)}: ${value}`);
      }
      return `{ ${entries.join(", ")} }`;
    }
    case "array": {
      if (arrayMustBreak(code.items)) return undefined;
      const items: string[] = [];
      for (const item of code.items) {
        const text = flat(item);
        if (text === undefined) return undefined;
        items.push(text);
      }
      return `[${items.join(", ")}]`;
    }
    case "chain": {
      let text = code.base ?? "";
      for (const [index, link] of code.calls.entries()) {
        const args: string[] = [];
        for (const arg of link.args) {
          const argText = flat(arg);
          if (argText === undefined) return undefined;
          args.push(argText);
        }
        text += `${index === 0 && code.base === undefined ? "" : "."}${link.name}(${args.join(", ")})`;
      }
      return text;
    }
  }
}

/** The formatter breaks arrays of two or more objects (or arrays) that each have more than one entry. */
function arrayMustBreak(items: Code[]): boolean {
  if (items.length < 2) return false;
  return (
    items.every((item) => item.kind === "object" && item.entries.length > 1) ||
    items.every((item) => item.kind === "array" && item.items.length > 1)
  );
}

const spaces = (count: number) => " ".repeat(count);

/**
 * Prints `code` starting at `column` on a line indented by `indent`, with `suffix` characters
 * (a comma, a closing parenthesis…) still to follow it on the last line.
 */
export function printCode(code: Code, column: number, indent: number, suffix: number): string {
  const oneLine = code.kind === "chain" && chainMustBreak(code) ? undefined : flat(code);
  if (oneLine !== undefined && column + oneLine.length + suffix <= LINE_WIDTH) return oneLine;
  switch (code.kind) {
    case "literal":
      return code.text;
    case "object":
      return printObject(code.entries, indent);
    case "array":
      return printArray(code.items, indent);
    case "chain":
      return printChain(code, column, indent, suffix);
  }
}

/**
 * The formatter's notion of a "simple" call argument: nothing nested two levels deep, no multi-line
 * text; objects, arrays and calls are simple when everything inside them is.
 */
function isSimpleArgument(code: Code, depth: number): boolean {
  if (depth >= 2) return false;
  switch (code.kind) {
    case "literal":
      return !code.text.includes("\n");
    case "object":
      return code.entries.every((entry) => isSimpleArgument(entry.value, depth + 1));
    case "array":
      return code.items.every((item) => isSimpleArgument(item, depth + 1));
    case "chain":
      return code.calls.every((link) => link.args.every((arg) => isSimpleArgument(arg, depth + 1)));
  }
}

/** Chains of more than two calls with a non-simple argument are always written one call per line. */
function chainMustBreak(code: Extract<Code, { kind: "chain" }>): boolean {
  return (
    code.calls.length > 2 && code.calls.some((link) => link.args.some((arg) => !isSimpleArgument(arg, 0)))
  );
}

function printObject(entries: Array<{ key: string; value: Code }>, indent: number): string {
  if (entries.length === 0) return "{}";
  const inner = indent + 2;
  const lines = entries.map(({ key, value }) => `${spaces(inner)}${printProperty(key, value, inner)},`);
  return `{\n${lines.join("\n")}\n${spaces(indent)}}`;
}

/** `key: value`; a long plain string moves to its own line, as the formatter does. */
export function printProperty(key: string, value: Code, indent: number): string {
  const head = `${propertyKey(key)}: `;
  const column = indent + head.length;
  const text = printCode(value, column, indent, 1);
  const isPlainString = value.kind === "literal" && /^["']/.test(value.text);
  // Keys shorter than five characters keep the string beside them (the formatter's "short key" rule).
  const shortKey = propertyKey(key).length < 5;
  if (isPlainString && !shortKey && column + text.length + 1 > LINE_WIDTH) {
    return `${propertyKey(key)}:\n${spaces(indent + 2)}${text}`;
  }
  return head + text;
}

function printArray(items: Code[], indent: number): string {
  if (items.length === 0) return "[]";
  const inner = indent + 2;
  const lines = items.map((item) => `${spaces(inner)}${printCode(item, inner, inner, 1)},`);
  return `[\n${lines.join("\n")}\n${spaces(indent)}]`;
}

function printChain(code: Extract<Code, { kind: "chain" }>, column: number, indent: number, suffix: number) {
  const [first] = code.calls;
  if (code.calls.length === 1 && first) {
    const callee = code.base === undefined ? first.name : `${code.base}.${first.name}`;
    return callee + printArguments(first.args, column + callee.length, indent, suffix);
  }
  const last = code.calls.at(-1)!;
  const head = flat({ ...code, calls: code.calls.slice(0, -1) });
  const endsWithMultilineText = last.args.some((arg) => arg.kind === "literal" && arg.text.includes("\n"));
  if (!chainMustBreak(code) && endsWithMultilineText && head !== undefined) {
    // A multi-line text in the last call keeps the chain on its line when it fits and breaks only that call's arguments.
    const callee = `${head}.${last.name}`;
    if (column + callee.length + 1 <= LINE_WIDTH) {
      return callee + printArguments(last.args, column + callee.length, indent, suffix);
    }
  }
  // Two or more calls that do not fit on one line: one call per line, as the formatter breaks member chains.
  const inner = indent + 2;
  let text = code.base ?? "";
  for (const [index, link] of code.calls.entries()) {
    const last = index === code.calls.length - 1;
    const head = `.${link.name}`;
    text += `\n${spaces(inner)}${head}${printArguments(link.args, inner + head.length, inner, last ? suffix : 0)}`;
  }
  return text;
}

/** `(args)`: a lone object or array argument hugs the parentheses; anything else breaks onto its own lines. */
function printArguments(args: Code[], column: number, indent: number, suffix: number): string {
  const oneLine = args.map(flat);
  if (oneLine.every((text) => text !== undefined)) {
    const text = `(${oneLine.join(", ")})`;
    if (column + text.length + suffix <= LINE_WIDTH) return text;
  }
  const [only] = args;
  if (args.length === 1 && only && (only.kind === "object" || only.kind === "array")) {
    return `(${printCode(only, column + 1, indent, suffix + 1)})`;
  }
  const inner = indent + 2;
  const lines = args.map((arg) => `${spaces(inner)}${printCode(arg, inner, inner, 1)},`);
  return `(\n${lines.join("\n")}\n${spaces(indent)})`;
}
