// The command palette's search: every word typed must appear in an entry's label or keywords;
// entries whose label starts with the query come first, then labels containing it, then the rest,
// each group in its original order.

export interface PaletteEntry {
  id: string;
  label: string;
  /** Extra words to match (a node's kind and title, a command's group). */
  keywords?: string;
}

function rank(entry: PaletteEntry, query: string): number {
  const label = entry.label.toLowerCase();
  if (label.startsWith(query)) return 0;
  if (label.includes(query)) return 1;
  return 2;
}

export function searchPalette<Entry extends PaletteEntry>(entries: readonly Entry[], query: string): Entry[] {
  const normalized = query.trim().toLowerCase();
  if (normalized === "") return [...entries];
  const words = normalized.split(/\s+/);
  return entries
    .map((entry, index) => ({
      entry,
      index,
      haystack: `${entry.label} ${entry.keywords ?? ""}`.toLowerCase(),
    }))
    .filter(({ haystack }) => words.every((word) => haystack.includes(word)))
    .map((candidate) => ({ ...candidate, rank: rank(candidate.entry, normalized) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ entry }) => entry);
}
