// Thread-filesystem paths (spec Threads: File System): the one normalisation every reader and writer
// of a thread's files goes through (built-in tools, uploads, the fs routes), so no path leaves the
// thread's own tree.
export class InvalidPathError extends Error {
  readonly code = "invalid_path";
}

export const MAX_THREAD_PATH_CHARACTERS = 1024;
export const MAX_THREAD_PATH_SEGMENT_CHARACTERS = 255;

// Control characters (NUL included) have no place in a file name and confuse logs and terminals.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** `%2e` (.), `%2f` (/), `%5c` (\) and `%00` (NUL), in any case: a traversal hidden behind encoding. */
const ENCODED_SEPARATOR_OR_DOT = /%(2e|2f|5c|00)/i;
/** `C:`, `C:\…`, `C:/…` and URLs such as `file:///etc/passwd`: paths of some other machine's filesystem. */
const HOST_ABSOLUTE = /^(?:[A-Za-z]:(?:[/\\]|$)|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/;

/**
 * Normalises a thread-filesystem path to its canonical form (`/dir/file.txt`). Every path is inside
 * the thread's own tree: a leading `/` is that tree's root and a relative path is read from it;
 * `.` and empty segments are dropped. Anything that tries to leave the tree or hide where it points
 * is refused with InvalidPathError: `..`, NUL and other control characters, backslashes,
 * percent-encoded dots and separators, drive letters and URLs, and over-long paths or names.
 */
export function normaliseThreadPath(input: string): string {
  if (typeof input !== "string") throw new InvalidPathError("A path must be a string.");
  if (input.length > MAX_THREAD_PATH_CHARACTERS)
    throw new InvalidPathError(`Paths are at most ${MAX_THREAD_PATH_CHARACTERS} characters.`);
  if (input.includes("\0")) throw new InvalidPathError("Paths cannot contain NUL bytes.");
  if (CONTROL_CHARACTER.test(input))
    throw new InvalidPathError("Paths cannot contain control characters (such as newlines or tabs).");
  if (input.includes("\\"))
    throw new InvalidPathError(`Path "${input}" contains a backslash; separate directories with "/".`);
  if (ENCODED_SEPARATOR_OR_DOT.test(input))
    throw new InvalidPathError(
      `Path "${input}" contains a percent-encoded dot, slash, backslash or NUL; write the path unencoded.`,
    );
  if (HOST_ABSOLUTE.test(input))
    throw new InvalidPathError(
      `Path "${input}" names a location outside the thread filesystem; paths start at the thread's own "/".`,
    );
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw new InvalidPathError(`Path "${input}" leaves the thread filesystem ("..").`);
    if (segment.length > MAX_THREAD_PATH_SEGMENT_CHARACTERS)
      throw new InvalidPathError(
        `File and directory names are at most ${MAX_THREAD_PATH_SEGMENT_CHARACTERS} characters.`,
      );
    segments.push(segment);
  }
  if (segments.length === 0) return "/";
  return `/${segments.join("/")}`;
}
