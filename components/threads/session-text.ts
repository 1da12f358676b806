// Text the user typed and has not sent yet, kept across a reload of the page (sessionStorage: this
// browser tab only). A composer passes its key; storage that is refused or full keeps nothing.

export function readSessionText(key: string): string {
  try {
    return window.sessionStorage.getItem(key) ?? "";
  } catch {
    return "";
  }
}

/** Keeps `text` under `key`; empty text forgets it. */
export function writeSessionText(key: string, text: string): void {
  try {
    if (text === "") window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, text);
  } catch {
    // Not kept: the composer still works.
  }
}

/** The key a thread's composer keeps its unsent message under. */
export const composerDraftKey = (threadId: string) => `tandem:composer:${threadId}`;
