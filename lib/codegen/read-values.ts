// Turns parsed literal expressions into JSON values, reporting anything that is not plain data.
import type { PathSegment } from "@/lib/standard";
import { withArticle } from "../text/plural";
import type { SourceReport } from "./source-diagnostics";
import type { Expression } from "./source-parser";

/** Marks a value that could not be read; its problem has already been reported. */
export const UNREADABLE: unique symbol = Symbol("unreadable");
export type Readable<T> = T | typeof UNREADABLE;

/** Own enumerable property even for "__proto__", so a parsed key can never reach a prototype. */
export function setProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function describeExpression(expression: Expression): string {
  switch (expression.kind) {
    case "identifier":
      return `the name "${expression.name}"`;
    case "member":
      return `"${expression.property}" (a property access)`;
    case "call":
      return "a function call";
    default:
      return withArticle(expression.kind);
  }
}

/** Reads the properties of an object literal, refusing duplicated keys (the exporter never writes them). */
export function readObjectProperties<T>(
  expression: Extract<Expression, { kind: "object" }>,
  path: readonly PathSegment[],
  report: SourceReport,
  readValue: (value: Expression, path: readonly PathSegment[], key: string) => Readable<T>,
): Readable<Record<string, T>> {
  const result: Record<string, T> = {};
  let readable = true;
  const seen = new Set<string>();
  for (const property of expression.properties) {
    const propertyPath = [...path, property.key];
    if (seen.has(property.key)) {
      report.error(
        "duplicate_property",
        propertyPath,
        `"${property.key}" is written twice in this object. Keep one.`,
        property.position,
      );
      readable = false;
      continue;
    }
    seen.add(property.key);
    report.remember(propertyPath, property.position);
    const value = readValue(property.value, propertyPath, property.key);
    if (value === UNREADABLE) readable = false;
    else setProperty(result, property.key, value);
  }
  return readable ? result : UNREADABLE;
}

/** A JSON value: literals, objects and arrays only. */
export function readJsonValue(
  expression: Expression,
  path: readonly PathSegment[],
  report: SourceReport,
): Readable<unknown> {
  report.remember(path, expression.position);
  switch (expression.kind) {
    case "string":
    case "number":
    case "boolean":
      return expression.value;
    case "null":
      return null;
    case "object":
      return readObjectProperties(expression, path, report, (value, valuePath) =>
        readJsonValue(value, valuePath, report),
      );
    case "array": {
      const items: unknown[] = [];
      let readable = true;
      for (const [index, element] of expression.elements.entries()) {
        const value = readJsonValue(element, [...path, index], report);
        if (value === UNREADABLE) readable = false;
        else items.push(value);
      }
      return readable ? items : UNREADABLE;
    }
    default:
      report.error(
        expression.kind === "identifier" ? "unknown_identifier" : "unsupported_syntax",
        path,
        `Expected a literal value here, found ${describeExpression(expression)}. Definitions are read as data, so write the value out.`,
        expression.position,
      );
      return UNREADABLE;
  }
}
