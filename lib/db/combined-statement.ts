// Several independent statements as ONE statement (data-modifying WITH queries), so a small
// transaction costs one statement and one round trip instead of BEGIN, n statements and COMMIT
// (docs/benchmarks.md, item 12). A statement sent alone is its own transaction: all of it commits or
// none of it does, exactly as the original statements in one transaction would.
//
// What keeps the meaning: every part sees the same snapshot and none sees another's writes, so the
// parts must be independent — `combineStatements` refuses (returns null) when a table one part
// modifies is named by any other part. The checks (`first`) are the exception: they run before
// every modification (the outer SELECT reads them first, and a data-modifying part nobody reads
// runs after the outer query), so a check may lock a row that a later part then updates.
//
// Limits, by design of a text rewrite for the runtime's own statements: a statement's WITH query
// names are renamed wherever they appear as words (so they must not double as column or function
// names), and reads or writes done inside functions and triggers are not seen by the independence
// test. Shapes it does not understand are refused, never guessed.
import type { CombinedForm, SqlParameter, SqlStatement as Statement } from "./sql-client";

interface ParsedStatement {
  /** The statement's own WITH queries: name and body (without the parentheses). */
  ctes: { name: string; body: string }[];
  /** The statement after its WITH list. */
  body: string;
  kind: "select" | "modify";
  /** The table an INSERT, UPDATE or DELETE writes (at the top level or in one of its WITH queries). */
  modifies: string[];
}

const MODIFYING = /^(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?([a-z_][a-z0-9_]*)"?(\s*\.)?/i;

/**
 * One statement doing what `first` (checks, in order) and then `statements` do; null when a part
 * has a shape this does not handle or the parts are not independent (the caller then runs them
 * in a transaction). Parameters are renumbered into one list. When exactly one part is marked
 * `returnsRows`, the statement returns that part's rows (read after the others); otherwise one row.
 */
export function combineStatements(
  first: readonly Statement[],
  statements: readonly CombinedForm[],
): Statement | null {
  if (first.length + statements.length === 0) return null;
  const returning = statements.filter((statement) => statement.returnsRows);
  if (returning.length > 1) return null;
  const returningIndex = returning[0] ? first.length + statements.indexOf(returning[0]) : -1;
  // The same few statement texts recur with new parameters: the rewrite is kept per text list.
  const key = [
    first.length,
    returningIndex,
    ...first.map((statement) => statement.text),
    ...statements.map((statement) => statement.text),
  ].join("\u0000");
  let combined = combinedTexts.get(key);
  if (combined === undefined) {
    combined = combineTexts(
      first.map((statement) => statement.text),
      statements.map((statement) => statement.text),
      returningIndex,
    );
    if (combinedTexts.size >= COMBINED_TEXTS_KEPT) combinedTexts.clear();
    combinedTexts.set(key, combined);
  }
  if (combined === null) return null;
  const params: SqlParameter[] = [];
  for (const [index, statement] of [...first, ...statements].entries()) {
    // Parameters are renumbered by the texts: a statement must pass exactly those it uses.
    if (statement.params.length !== combined.parameterCounts[index]) return null;
    params.push(...statement.params);
  }
  return { text: combined.text, params };
}

const COMBINED_TEXTS_KEPT = 512;
const combinedTexts = new Map<string, { text: string; parameterCounts: number[] } | null>();

function combineTexts(
  first: readonly string[],
  statements: readonly string[],
  returningIndex: number,
): { text: string; parameterCounts: number[] } | null {
  const all = [...first, ...statements];
  const parsed: ParsedStatement[] = [];
  for (const text of all) {
    const one = parseStatement(text);
    if (!one) return null;
    parsed.push(one);
  }
  for (const check of parsed.slice(0, first.length)) {
    if (check.kind !== "select" || check.modifies.length > 0) return null;
  }
  // Independence: a table written by one part is named by no other part (checks excepted).
  const written = new Map<string, number>();
  for (const [index, one] of parsed.entries()) {
    for (const table of one.modifies) {
      if (written.has(table)) return null;
      written.set(table, index);
    }
  }
  for (const [table, writer] of written) {
    const word = new RegExp(`(^|[^a-z0-9_."])"?${table}"?($|[^a-z0-9_"])`, "i");
    for (const [index, text] of all.entries()) {
      if (index === writer || index < first.length) continue;
      if (word.test(text)) return null;
    }
  }
  const ctes: string[] = [];
  const readInOrder: string[] = [];
  let offset = 0;
  const parameterCounts = all.map(parameterCount);
  for (const [index, one] of parsed.entries()) {
    const rename = (text: string) => renameCtes(renumber(text, offset), one.ctes, index);
    for (const cte of one.ctes) ctes.push(`p${index}_${cte.name} AS (${rename(cte.body)})`);
    // A read part is MATERIALIZED: computed whole where it is read, whatever its functions'
    // volatility (a check that were inlined could be skipped by the count over it).
    ctes.push(`p${index} AS ${one.kind === "select" ? "MATERIALIZED " : ""}(${rename(one.body)})`);
    if (one.kind === "select") readInOrder.push(`(SELECT count(*) FROM p${index})`);
    offset += parameterCounts[index]!;
  }
  let outer = readInOrder.length > 0 ? `SELECT ${readInOrder.join(", ")}` : "SELECT 1";
  if (returningIndex >= 0) {
    // The returned part is scanned last: the read parts are a one-time filter over it (they do not
    // depend on its rows), which Postgres evaluates before it reads the first of them.
    if (parsed[returningIndex]!.kind !== "modify") return null;
    const gate = readInOrder.map((read) => `${read} IS NOT NULL`).join(" AND ");
    outer = `SELECT * FROM p${returningIndex}${gate ? ` WHERE ${gate}` : ""}`;
  }
  return { text: `WITH ${ctes.join(",\n")}\n${outer}`, parameterCounts };
}

/** The highest `$n` a statement uses (outside quotes): how many parameters it takes. */
function parameterCount(text: string): number {
  let highest = 0;
  mapOutsideQuotes(text, (code) => {
    for (const match of code.matchAll(/\$(\d+)/g)) highest = Math.max(highest, Number(match[1]));
    return code;
  });
  return highest;
}

/** `$n` → `$(n + offset)` outside string literals and quoted identifiers. */
function renumber(text: string, offset: number): string {
  if (offset === 0) return text;
  return mapOutsideQuotes(text, (code) =>
    code.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`),
  );
}

function renameCtes(text: string, ctes: { name: string }[], index: number): string {
  if (ctes.length === 0) return text;
  return mapOutsideQuotes(text, (code) => {
    let renamed = code;
    for (const { name } of ctes)
      renamed = renamed.replace(
        new RegExp(`(^|[^a-z0-9_.$])${name}(?=$|[^a-z0-9_])`, "gi"),
        `$1p${index}_${name}`,
      );
    return renamed;
  });
}

/** Applies `map` to the parts of `text` outside '…' literals and "…" identifiers. */
function mapOutsideQuotes(text: string, map: (code: string) => string): string {
  let result = "";
  let start = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "'" || char === '"') {
      const end = closingQuote(text, index);
      result += map(text.slice(start, index)) + text.slice(index, end + 1);
      index = end + 1;
      start = index;
    } else index += 1;
  }
  return result + map(text.slice(start));
}

function closingQuote(text: string, open: number): number {
  const quote = text[open]!;
  let index = open + 1;
  while (index < text.length) {
    if (text[index] === quote) {
      if (text[index + 1] === quote) index += 2;
      else return index;
    } else index += 1;
  }
  return text.length - 1;
}

/** Splits `WITH a AS (…), b AS (…) body`; null for shapes this does not handle. */
export function parseStatement(text: string): ParsedStatement | null {
  let rest = text.trim().replace(/;\s*$/, "");
  // Dollar quotes, comments and E'' strings (backslash escapes): not ours to rewrite.
  if (/\$\$|--|\/\*|(^|[^a-z0-9_])e'/i.test(rest)) return null;
  const ctes: { name: string; body: string }[] = [];
  const withClause = /^WITH\s+/i.exec(rest);
  if (withClause) {
    if (/^WITH\s+RECURSIVE\b/i.test(rest)) return null;
    rest = rest.slice(withClause[0].length);
    for (;;) {
      const head = /^([a-z_][a-z0-9_]*)\s+AS\s+(NOT\s+MATERIALIZED\s+|MATERIALIZED\s+)?\(/i.exec(rest);
      if (!head || head[2]) return null;
      const open = head[0].length - 1;
      const close = matchingParenthesis(rest, open);
      if (close < 0) return null;
      ctes.push({ name: head[1]!.toLowerCase(), body: rest.slice(open + 1, close).trim() });
      rest = rest.slice(close + 1).trimStart();
      if (rest.startsWith(",")) rest = rest.slice(1).trimStart();
      else break;
    }
  }
  const modifies: string[] = [];
  for (const part of [...ctes.map((cte) => cte.body), rest]) {
    if (/^WITH\b/i.test(part)) return null; // a nested WITH list: not flattened here
    const modifying = MODIFYING.exec(part);
    if (modifying?.[3]) return null; // a schema-qualified table: the independence test reads bare names
    if (modifying) modifies.push(modifying[2]!.toLowerCase());
    else if (!/^SELECT\b/i.test(part)) return null;
  }
  return { ctes, body: rest, kind: MODIFYING.test(rest) ? "modify" : "select", modifies };
}

/** The index of the parenthesis closing the one at `open`, outside quotes; -1 when unbalanced. */
function matchingParenthesis(text: string, open: number): number {
  let depth = 0;
  let index = open;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "'" || char === '"') {
      index = closingQuote(text, index) + 1;
      continue;
    }
    if (char === "(") depth += 1;
    else if (char === ")") {
      depth -= 1;
      if (depth === 0) return index;
    }
    index += 1;
  }
  return -1;
}
