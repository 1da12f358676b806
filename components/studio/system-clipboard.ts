// Moves studio clipboard payloads through the system clipboard, so a copy in one project's studio
// pastes in another's (or in another tab). When the browser refuses clipboard access, the copy also
// lives in localStorage, which every studio page of this origin shares.
import { parseClipboard, type StudioClipboard, serializeClipboard } from "@/lib/studio/clipboard";

const STORAGE_KEY = "tandem.studio.clipboard";

interface StoredCopy {
  text: string;
  /** Whether the system clipboard got the same copy; if so it wins, since the user may have copied something else since. */
  onSystemClipboard: boolean;
}

function readStored(): StoredCopy | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const stored = JSON.parse(raw) as Partial<StoredCopy>;
    return typeof stored.text === "string"
      ? { text: stored.text, onSystemClipboard: stored.onSystemClipboard === true }
      : null;
  } catch {
    return null;
  }
}

export async function writeStudioClipboard(payload: StudioClipboard): Promise<void> {
  const text = serializeClipboard(payload);
  let onSystemClipboard = false;
  try {
    await navigator.clipboard.writeText(text);
    onSystemClipboard = true;
  } catch {
    // Permission denied or no clipboard API: localStorage below still carries the copy.
  }
  try {
    window.localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ text, onSystemClipboard } satisfies StoredCopy),
    );
  } catch {
    if (!onSystemClipboard)
      throw new Error("This browser allows neither clipboard nor local storage access.");
  }
}

/** The studio payload to paste, or null when the clipboard holds something else. */
export async function readStudioClipboard(): Promise<StudioClipboard | null> {
  const stored = readStored();
  try {
    const fromSystem = parseClipboard(await navigator.clipboard.readText());
    if (fromSystem) return fromSystem;
    return stored && !stored.onSystemClipboard ? parseClipboard(stored.text) : null;
  } catch {
    return stored ? parseClipboard(stored.text) : null;
  }
}
