// Where the chat composer puts the files a person attaches: each goes to /uploads/<name> in the
// thread's filesystem (PUT with If-None-Match: *, so nothing is ever overwritten), and a taken name
// moves on to "name (2).ext", "name (3).ext"… The message then refers to the files by path.

import { MAX_ATTACHMENTS_PER_MESSAGE } from "@/lib/contracts/thread-requests";

export const UPLOADS_DIRECTORY = "/uploads";
/** The server takes at most this many attachments per message (declared with the message body). */
export { MAX_ATTACHMENTS_PER_MESSAGE };

const MAX_NAME_CHARACTERS = 255;
const MAX_NAME_ATTEMPTS = 50;

/**
 * A file name the thread filesystem accepts, as close to the original as possible: control
 * characters dropped, slashes and backslashes replaced, percent-encoded dots and separators defused
 * (the path rules refuse them), at most 255 characters with the extension kept.
 */
export function uploadFileName(name: string): string {
  const cleaned = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we drop.
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[/\\]/g, "_")
    .replace(/%(?=2e|2f|5c|00)/gi, "_")
    .trim();
  if (cleaned === "" || cleaned === "." || cleaned === "..") return "file";
  if (cleaned.length <= MAX_NAME_CHARACTERS) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : "";
  return cleaned.slice(0, MAX_NAME_CHARACTERS - extension.length) + extension;
}

/** The n-th path tried for a name: `/uploads/photo.png`, then `/uploads/photo (2).png`, … */
export function uploadPathCandidate(name: string, attempt: number): string {
  const safe = uploadFileName(name);
  if (attempt <= 1) return `${UPLOADS_DIRECTORY}/${safe}`;
  const dot = safe.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
  const suffix = ` (${attempt})`;
  return `${UPLOADS_DIRECTORY}/${stem.slice(0, MAX_NAME_CHARACTERS - suffix.length - extension.length)}${suffix}${extension}`;
}

/** Tries to create a file at a path: "created", or "taken" when something is already there. */
export type CreateAt = (path: string) => Promise<"created" | "taken">;

/**
 * Uploads under the first free name and answers its path. Errors other than a taken name (too
 * large, server unreachable…) reject as they are, so the caller can show them.
 */
export async function uploadUnderFreeName(name: string, createAt: CreateAt): Promise<string> {
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
    const path = uploadPathCandidate(name, attempt);
    if ((await createAt(path)) === "created") return path;
  }
  throw new Error(
    `Could not find a free name for "${name}" in ${UPLOADS_DIRECTORY} after ${MAX_NAME_ATTEMPTS} tries; rename the file.`,
  );
}
