// Turns zod issues into diagnostics: bundle paths, stable codes and messages that say what to fix.
import type { z } from "zod";
import {
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
  describeEntity,
  entityAtPath,
  entityKindAtPath,
  formatPath,
  type PathSegment,
} from "./diagnostics";

type Issue = z.core.$ZodIssue;

const DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized)/;

function isDiagnosticCode(code: unknown): code is DiagnosticCode {
  return (DIAGNOSTIC_CODES as readonly unknown[]).includes(code);
}

function describeValueType(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

const EXPECTED_LABELS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  record: "an object",
};

function expectedLabel(expected: string): string {
  return EXPECTED_LABELS[expected] ?? expected;
}

/** `Agent "x": "sideA.maxSteps"` — the definition, then the property inside it. */
function subject(root: unknown, path: readonly PathSegment[]): string {
  const owner = describeEntity(root, path);
  // path.slice(2) is what lies inside the definition (`agents[0]`); nothing for shorter paths.
  const inner = formatPath(path.slice(2));
  if (inner !== "") return `${owner}: "${inner}"`;
  if (path.length === 1) return `"${formatPath(path)}"`;
  return owner;
}

/**
 * Prefixes a message written in a schema with where it applies. When the message already names the
 * property (`"apiKey" holds…`), only the containing object is given, so the name is not repeated.
 */
function withLocation(root: unknown, path: readonly PathSegment[], message: string): string {
  const owner = describeEntity(root, path);
  const last = path.at(-1);
  const namesProperty = typeof last === "string" && message.includes(`"${last}"`);
  const locationPath = namesProperty ? path.slice(0, -1) : path;
  const inner = formatPath(locationPath.slice(2));
  return inner === ""
    ? `${owner}: ${message}`
    : `${owner} ${namesProperty ? "in" : "at"} "${inner}": ${message}`;
}

function issueCodeAndMessage(
  issue: Issue,
  root: unknown,
  path: readonly PathSegment[],
): { code: DiagnosticCode; message: string } {
  const target = subject(root, path);
  const custom = !DEFAULT_MESSAGE.test(issue.message);
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined && path.length > 0) {
        // Inside a definition: the definition, then the property's path in it (`"sideA.prompt"`);
        // above one: the object that lacks it, then its key.
        const inside = path.length > 2;
        const owner = describeEntity(root, inside ? path : path.slice(0, -1));
        const property = formatPath(inside ? path.slice(2) : path.slice(-1));
        return {
          code: "missing_property",
          message: `${owner}: required property "${property}" is missing. Add it.`,
        };
      }
      return {
        code: "invalid_type",
        message: `${target} must be ${expectedLabel(issue.expected)}, not ${describeValueType(issue.input)}.`,
      };
    case "invalid_value":
      if (custom) return { code: "invalid_value", message: withLocation(root, path, issue.message) };
      return {
        code: "invalid_value",
        message: `${target} is ${JSON.stringify(issue.input)}; it must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}.`,
      };
    case "too_small":
    case "too_big": {
      const isLength = issue.origin === "string" || issue.origin === "array" || issue.origin === "set";
      if (issue.code === "too_small" && isLength && Number(issue.minimum) === 1) {
        // A definition's own name left empty: its path (`agents[0]`) means nothing on the canvas.
        const unnamed = path.length === 3 && path[2] === "name" ? entityKindAtPath(path) : undefined;
        if (unnamed) return { code: "empty_value", message: `This ${unnamed} has no name: give it one.` };
        return { code: "empty_value", message: `${target} must not be empty.` };
      }
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const relation =
        issue.code === "too_small"
          ? issue.inclusive === false
            ? "greater than"
            : "at least"
          : issue.inclusive === false
            ? "less than"
            : "at most";
      const unit = isLength ? (issue.origin === "string" ? " characters long" : " items long") : "";
      return {
        code: isLength ? "invalid_value" : "out_of_range",
        message: `${target} must be ${relation} ${String(bound)}${unit}.`,
      };
    }
    case "invalid_format":
      return {
        code: "invalid_format",
        message: custom
          ? withLocation(root, path, issue.message)
          : `${target} is not a valid ${issue.format}.`,
      };
    case "custom": {
      const code = issue.params?.code;
      return {
        code: isDiagnosticCode(code) ? code : "invalid_value",
        message: withLocation(root, path, issue.message),
      };
    }
    case "unrecognized_keys":
      return {
        code: "unknown_property",
        message: `${target} has unknown properties: ${issue.keys.join(", ")}.`,
      };
    default:
      return { code: "invalid_value", message: withLocation(root, path, issue.message) };
  }
}

/**
 * A union member that refused the value itself (not something inside it) as the wrong type or the
 * wrong fixed value: a literal member refusing an object. A failed member has at least one issue.
 */
function isWrongKind(branch: readonly Issue[]): boolean {
  const first = branch[0]!;
  return (first.code === "invalid_type" || first.code === "invalid_value") && first.path.length === 0;
}

/**
 * A union failed. If exactly one member was the right kind of value (it did not refuse the value's
 * type), report that member's issues: they say what is wrong inside the value.
 */
function unionIssues(issue: Extract<Issue, { code: "invalid_union" }>): Issue[] | undefined {
  const meaningful = issue.errors.filter((branch) => !isWrongKind(branch));
  if (meaningful.length !== 1) return undefined;
  return meaningful[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as Issue);
}

/** The types the members expected, from those that refused the value's type (`a string or an object`). */
function expectedTypesOfUnion(issue: Extract<Issue, { code: "invalid_union" }>): string[] {
  const expected = issue.errors.flatMap((branch) => {
    const first = branch[0]!;
    return first.code === "invalid_type" && first.path.length === 0 ? [expectedLabel(first.expected)] : [];
  });
  return [...new Set(expected)];
}

function toDiagnostics(issue: Issue, root: unknown): Diagnostic[] {
  if (issue.code === "invalid_union") {
    const inner = unionIssues(issue);
    if (inner) return inner.flatMap((innerIssue) => toDiagnostics(innerIssue, root));
  }
  const path = issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
  const entity = entityAtPath(root, path);
  let result: { code: DiagnosticCode; message: string };
  if (issue.code === "invalid_union") {
    const target = subject(root, path);
    const expected = expectedTypesOfUnion(issue);
    result =
      expected.length === 0
        ? {
            code: "invalid_value",
            message: DEFAULT_MESSAGE.test(issue.message)
              ? `${target} is not valid.`
              : withLocation(root, path, issue.message),
          }
        : {
            code: "invalid_type",
            message: `${target} must be ${expected.join(" or ")}, not ${describeValueType(issue.input)}.`,
          };
  } else {
    result = issueCodeAndMessage(issue, root, path);
  }
  const diagnostic: Diagnostic = { severity: "error", path: formatPath(path), ...result };
  return [entity ? { ...diagnostic, entity } : diagnostic];
}

/** Diagnostics for a failed `safeParse(input, { reportInput: true })`; `root` names the definitions in messages. */
export function diagnosticsFromZodError(error: z.ZodError, root: unknown): Diagnostic[] {
  return error.issues.flatMap((issue) => toDiagnostics(issue, root));
}
