// Keyboard shortcuts as data: "Mod+Shift+Z", "Delete", "?". `Mod` is Ctrl, or ⌘ on a Mac. The same
// strings drive the key handler, the help dialog and the `aria-keyshortcuts` of buttons.

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

interface ParsedShortcut {
  key: string;
  mod: boolean;
  shift: boolean;
  alt: boolean;
}

function parseShortcut(shortcut: string): ParsedShortcut {
  const parts = shortcut.split("+");
  // "Mod++" would split into empty parts; the key is whatever follows the last modifier.
  const key = parts.at(-1) || "+";
  const modifiers = new Set(parts.slice(0, -1));
  return { key, mod: modifiers.has("Mod"), shift: modifiers.has("Shift"), alt: modifiers.has("Alt") };
}

/** A single printable character that is not a letter ("?", "1") is typed with whatever Shift it needs. */
function shiftIsPartOfKey(key: string): boolean {
  return key.length === 1 && key.toLowerCase() === key.toUpperCase();
}

export function matchesShortcut(press: KeyPress, shortcut: string): boolean {
  const wanted = parseShortcut(shortcut);
  if (press.key.toLowerCase() !== wanted.key.toLowerCase()) return false;
  if ((press.ctrlKey || press.metaKey) !== wanted.mod) return false;
  if (press.altKey !== wanted.alt) return false;
  return shiftIsPartOfKey(wanted.key) || press.shiftKey === wanted.shift;
}

/** "Mod+Shift+Z" → "Ctrl+Shift+Z" (or "⌘+Shift+Z" on a Mac), for people. */
export function shortcutLabel(shortcut: string, mac: boolean): string {
  return shortcut
    .split("+")
    .map((part) => (part === "Mod" ? (mac ? "⌘" : "Ctrl") : part.length === 1 ? part.toUpperCase() : part))
    .join("+");
}

/** "Mod+D" → "Control+D Meta+D", the form `aria-keyshortcuts` wants. */
export function ariaKeyShortcuts(shortcuts: readonly string[]): string {
  return shortcuts
    .flatMap((shortcut) => {
      const parts = shortcut.split("+").map((part) => (part.length === 1 ? part.toUpperCase() : part));
      if (!parts.includes("Mod")) return [parts.join("+")];
      return ["Control", "Meta"].map((mod) => parts.map((part) => (part === "Mod" ? mod : part)).join("+"));
    })
    .join(" ");
}

/** "Mod+Enter" → "Mod-Enter", the form CodeMirror's keymaps take (its `Mod` is Ctrl, or ⌘ on a Mac). */
export function codeMirrorKey(shortcut: string): string {
  const parts = shortcut.split("+");
  // As in parseShortcut: "Mod++" splits into empty parts, and its key is "+".
  const key = parts.at(-1) || "+";
  return [...parts.slice(0, -1).filter(Boolean), key].join("-");
}
