// The names a version added, removed and changed, per kind of definition.
import type { VersionDiff } from "@/lib/api/schemas";

const KINDS = ["agents", "prompts", "models", "tools"] as const;
const CHANGES = [
  { key: "added", label: "Added", sign: "+" },
  { key: "removed", label: "Removed", sign: "−" },
  { key: "changed", label: "Changed", sign: "~" },
] as const;

export function VersionDiffView({ diff }: { diff: VersionDiff }) {
  const lines = CHANGES.flatMap((change) =>
    KINDS.filter((kind) => diff[change.key][kind].length > 0).map((kind) => ({
      id: `${change.key}-${kind}`,
      text: `${change.label} ${kind}: ${diff[change.key][kind].join(", ")}`,
      sign: change.sign,
    })),
  );
  if (lines.length === 0) return <p className="text-sm text-muted">No definitions changed.</p>;
  return (
    <ul className="font-mono text-sm">
      {lines.map((line) => (
        <li key={line.id}>
          {line.sign} {line.text}
        </li>
      ))}
    </ul>
  );
}
