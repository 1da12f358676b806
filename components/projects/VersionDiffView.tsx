// What a version added, removed and changed, per kind of definition; for a changed definition, each
// changed field with its old and new value (long values are shortened, in full on hover).
import type { VersionDiff } from "@/lib/contracts/version";
import { type FieldChange, formatFieldValue } from "@/lib/versions/bundle-diff";

const KINDS = ["agents", "prompts", "models", "tools"] as const;
const CHANGES = [
  { key: "added", label: "Added", sign: "+" },
  { key: "removed", label: "Removed", sign: "−" },
] as const;

/** Longest value shown inline; the full value is in the tooltip. */
const VALUE_LIMIT = 140;

function FieldValue({ value, tone }: { value: unknown; tone: "before" | "after" }) {
  const text = formatFieldValue(value);
  const shown = text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT - 1)}…` : text;
  return (
    <span
      title={shown === text ? undefined : text}
      className={`break-all ${tone === "before" ? "text-muted line-through" : ""}`}
    >
      {shown}
    </span>
  );
}

function FieldChangeLine({ change }: { change: FieldChange }) {
  const label = change.before === undefined ? "added" : change.after === undefined ? "removed" : "changed";
  return (
    <li className="flex flex-wrap gap-x-2 pl-6">
      <span className="text-muted">{change.path}</span>
      <span className="sr-only">{label}:</span>
      {change.before !== undefined ? <FieldValue value={change.before} tone="before" /> : null}
      {change.before !== undefined && change.after !== undefined ? (
        <span aria-hidden="true" className="text-muted">
          →
        </span>
      ) : null}
      {change.after !== undefined ? <FieldValue value={change.after} tone="after" /> : null}
      {change.after === undefined ? <span className="text-muted">(removed)</span> : null}
      {change.before === undefined ? <span className="text-muted">(new)</span> : null}
    </li>
  );
}

export function VersionDiffView({ diff }: { diff: VersionDiff }) {
  const lines = CHANGES.flatMap((change) =>
    KINDS.filter((kind) => diff[change.key][kind].length > 0).map((kind) => ({
      id: `${change.key}-${kind}`,
      text: `${change.label} ${kind}: ${diff[change.key][kind].join(", ")}`,
      sign: change.sign,
    })),
  );
  const changed = KINDS.flatMap((kind) => diff.changed[kind].map((name) => ({ kind, name })));
  if (lines.length === 0 && changed.length === 0) {
    return <p className="text-sm text-muted">No definitions changed.</p>;
  }
  return (
    <ul className="flex flex-col gap-0.5 font-mono text-sm">
      {lines.map((line) => (
        <li key={line.id}>
          {line.sign} {line.text}
        </li>
      ))}
      {changed.map(({ kind, name }) => {
        const fields = diff.fields?.[kind][name] ?? [];
        return (
          <li key={`changed-${kind}-${name}`}>
            ~ Changed {kind.slice(0, -1)} {name}
            {fields.length > 0 ? (
              <ul aria-label={`Changed fields of ${name}`} className="mt-0.5 text-xs">
                {fields.map((change) => (
                  <FieldChangeLine key={change.path} change={change} />
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
