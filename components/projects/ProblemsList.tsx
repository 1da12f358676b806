// The problems found in a project's definitions: errors first, each naming where it is.
import type { ApiDiagnostic } from "@/lib/contracts/project";

export function ProblemsList({ diagnostics }: { diagnostics: ApiDiagnostic[] }) {
  const sorted = [...diagnostics].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1,
  );
  return (
    <section aria-label="Problems" className="rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">
        Problems <span className="text-muted">({diagnostics.length})</span>
      </h2>
      {sorted.length === 0 ? (
        <p className="px-4 py-3 text-muted">No problems found.</p>
      ) : (
        <ul className="divide-y divide-border">
          {sorted.map((diagnostic) => (
            <li
              key={`${diagnostic.path}|${diagnostic.code ?? ""}|${diagnostic.message}`}
              className="flex gap-3 px-4 py-2"
            >
              <span className={diagnostic.severity === "error" ? "text-danger" : "text-warning"}>
                {diagnostic.severity}
              </span>
              <span className="font-mono text-muted">{diagnostic.path}</span>
              <span>{diagnostic.message}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
