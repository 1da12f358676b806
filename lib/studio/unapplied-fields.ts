// Inspector text that does not parse yet (JSON typed half-way, a malformed env line): it is not in the
// document, so Save does not store it. The studio keeps each such draft here, so Problems can list it
// and the inspector can show it again when its node is selected again. Pure.

export interface UnappliedField {
  /** Which control holds it: the inspected node or edge, the groups around the control and its label. */
  key: string;
  /** The node or edge id the control edits. */
  itemId: string;
  /** The control's label, for Problems ("Arguments schema (JSON Schema)"). */
  label: string;
  /** What the user typed. */
  text: string;
  /** Why it does not parse ("Not valid JSON yet: …"). */
  message: string;
  /**
   * The document's value (as text) when the draft was typed: the draft is shown again only while the
   * document still holds it; undo or the code pane changing the field replaces the draft.
   */
  appliedText: string;
}

/** The key of a control: the item it edits, the titles of the groups around it and its label. */
export function unappliedFieldKey(itemId: string, groups: readonly string[], label: string): string {
  return [itemId, ...groups, label].join(" › ");
}

/** Adds or replaces the draft of `field.key`; the same list when nothing changed. */
export function withUnappliedField(
  fields: readonly UnappliedField[],
  field: UnappliedField,
): readonly UnappliedField[] {
  const index = fields.findIndex((candidate) => candidate.key === field.key);
  if (index === -1) return [...fields, field];
  const current = fields[index];
  if (
    current?.text === field.text &&
    current.message === field.message &&
    current.appliedText === field.appliedText
  )
    return fields;
  return fields.map((candidate, at) => (at === index ? field : candidate));
}

/** Drops the draft of `key` (it parsed, or the value was replaced); the same list when there is none. */
export function withoutUnappliedField(
  fields: readonly UnappliedField[],
  key: string,
): readonly UnappliedField[] {
  return fields.some((field) => field.key === key) ? fields.filter((field) => field.key !== key) : fields;
}

/** The drafts whose node or edge is still on the canvas (a deleted node takes its drafts with it). */
export function unappliedFieldsOn(
  fields: readonly UnappliedField[],
  itemIds: ReadonlySet<string>,
): readonly UnappliedField[] {
  return fields.every((field) => itemIds.has(field.itemId))
    ? fields
    : fields.filter((field) => itemIds.has(field.itemId));
}

/**
 * The compile's error counts with each draft counted as one more error on its node or edge (a card's
 * badge says as many problems as Problems lists for it); the same counts when there is no draft.
 */
export function countsWithUnapplied<
  Counts extends { byNode: Map<string, number>; byEdge: Map<string, number> },
>(counts: Counts, fields: readonly UnappliedField[]): Counts {
  if (fields.length === 0) return counts;
  const byNode = new Map(counts.byNode);
  const byEdge = new Map(counts.byEdge);
  for (const field of fields) {
    // Node and edge ids never coincide: the draft counts on whichever its item is.
    byNode.set(field.itemId, (byNode.get(field.itemId) ?? 0) + 1);
    byEdge.set(field.itemId, (byEdge.get(field.itemId) ?? 0) + 1);
  }
  return { ...counts, byNode, byEdge };
}
