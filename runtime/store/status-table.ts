// A small transition table for one status column (a registry entry's, an invocation's, an effect's,
// an approval's): each named transition lists the statuses it leaves from and those it may write, its
// UPDATE checks the from-statuses in SQL (`fromSql`), and a write the table does not allow is refused
// (`StatusTransitionRefusedError`). docs/runtime.md prints each table (`markdown`; a test keeps them
// equal). The thread's own status has the larger table of thread-lifecycle.ts.

/** One named change of a status column. */
export interface StatusTransition {
  /**
   * The statuses it applies from (empty for a transition that inserts the row), or every status but
   * some (`anyBut`: for a column whose values include free text).
   */
  from: readonly string[] | { anyBut: readonly string[] };
  /** The statuses it may write. */
  to: readonly string[];
  /** The code that applies it (for the docs). */
  callers: string;
}

/** A write a status table does not allow: a bug in the caller. */
export class StatusTransitionRefusedError extends Error {
  constructor(column: string, name: string, detail: string) {
    super(`${column}: transition ${name} ${detail}.`);
    this.name = "StatusTransitionRefusedError";
  }
}

/** A status column's table: its transitions and the checks built from them. */
export interface StatusTable<Name extends string> {
  /** The column, as `table.column` (for messages and docs). */
  column: string;
  transitions: Readonly<Record<Name, StatusTransition>>;
  /** Whether `name` applies from `from` (and, when given, may write `to`). */
  allows(name: Name, from: string, to?: string): boolean;
  /** The status `name` writes, checked: throws StatusTransitionRefusedError when it may not write it. */
  target(name: Name, to: string): string;
  /** `<column> IN (...from)`, for the WHERE of `name`'s UPDATE (`column` names it, e.g. with an alias). */
  fromSql(name: Name, column?: string): string;
  /** The table as markdown (docs/runtime.md). */
  markdown(): string;
}

/** The statuses a transition excludes, when it applies from every status but some. */
function excluded(from: StatusTransition["from"]): readonly string[] | null {
  return "anyBut" in from ? from.anyBut : null;
}

function quoted(status: string): string {
  if (!/^[a-z_]+$/.test(status)) throw new Error(`A status is a lower-case word: ${status}`);
  return `'${status}'`;
}

/**
 * A table for `column`. A `to` of `["*"]` means any text but the listed statuses of other rows (a
 * registry entry's status is the child's own status text).
 */
export function statusTable<Name extends string>(
  column: string,
  transitions: Record<Name, StatusTransition>,
): StatusTable<Name> {
  const bare = column.split(".").pop()!;
  const writes = (transition: StatusTransition, to: string) =>
    transition.to.includes(to) || (transition.to.includes("*") && to.length > 0);
  return {
    column,
    transitions,
    allows(name, from, to) {
      const transition = transitions[name];
      const anyBut = excluded(transition.from);
      const leaves = anyBut ? !anyBut.includes(from) : (transition.from as readonly string[]).includes(from);
      return leaves && (to === undefined || writes(transition, to));
    },
    target(name, to) {
      if (!writes(transitions[name], to))
        throw new StatusTransitionRefusedError(column, name, `does not write status ${JSON.stringify(to)}`);
      return to;
    },
    fromSql(name, as = bare) {
      const from = transitions[name].from;
      const anyBut = excluded(from);
      if (anyBut) return `${as} NOT IN (${anyBut.map(quoted).join(", ")})`;
      if (!("length" in from) || from.length === 0)
        throw new Error(`${column}: ${name} inserts its row; it has no from-status.`);
      return `${as} IN (${(from as readonly string[]).map(quoted).join(", ")})`;
    },
    markdown() {
      const list = (statuses: readonly string[]) =>
        statuses.map((status) => (status === "*" ? "its status text" : `\`${status}\``)).join(", ");
      const lines = ["| Transition | From | To | Called by |", "| --- | --- | --- | --- |"];
      for (const [name, transition] of Object.entries<StatusTransition>(transitions)) {
        const anyBut = excluded(transition.from);
        const from = anyBut
          ? `any but ${list(anyBut)}`
          : (transition.from as readonly string[]).length === 0
            ? "— (insert)"
            : list(transition.from as readonly string[]);
        lines.push(`| \`${name}\` | ${from} | ${list(transition.to)} | ${transition.callers} |`);
      }
      return lines.join("\n");
    },
  };
}
