// Undo/redo as a pure history of whole documents: cheap because documents are immutable and share
// unchanged nodes. Consecutive edits with the same coalesce key (typing in one field) form one step.
export interface History<Document> {
  past: Document[];
  present: Document;
  future: Document[];
  /** Key of the last recorded edit; a following edit with the same key replaces it instead of adding a step. */
  coalesceKey?: string;
}

export const HISTORY_LIMIT = 200;

export function startHistory<Document>(present: Document): History<Document> {
  return { past: [], present, future: [] };
}

export function record<Document>(
  history: History<Document>,
  next: Document,
  coalesceKey?: string,
): History<Document> {
  if (next === history.present) return history;
  if (coalesceKey !== undefined && coalesceKey === history.coalesceKey) {
    return { ...history, present: next, future: [] };
  }
  return {
    past: [...history.past, history.present].slice(-HISTORY_LIMIT),
    present: next,
    future: [],
    coalesceKey,
  };
}

/** Replaces the present without a new step (e.g. while a node is being dragged). */
export function replacePresent<Document>(history: History<Document>, next: Document): History<Document> {
  return { ...history, present: next };
}

export function undo<Document>(history: History<Document>): History<Document> {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo<Document>(history: History<Document>): History<Document> {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}

export const canUndo = (history: History<unknown>) => history.past.length > 0;
export const canRedo = (history: History<unknown>) => history.future.length > 0;
