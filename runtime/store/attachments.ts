// Attachments of messages and tool results (spec Threads: messages carry AttachmentRefs to files
// of the thread's filesystem): uploads are written under /attachments/ without replacing anything,
// path references are resolved from files already there, and the recent images are read back as
// base64 for context assembly. Run inside the transaction that stores the message, so a refused
// attachment leaves nothing behind.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { MAX_ATTACHMENTS_PER_MESSAGE } from "@/lib/contracts/thread-requests";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { InvalidInputError } from "../errors";
import { createThreadFile, type FileRecord, readThreadFile, statThreadFile } from "./file-store";
import type { AttachmentRef, Side, StoredMessage } from "./messages";
import { normaliseThreadPath } from "./thread-paths";

export const ATTACHMENTS_DIRECTORY = "/attachments";
export { MAX_ATTACHMENTS_PER_MESSAGE };

/** An attachment as the API accepts it, once parsed at the edge (uploads decoded from base64). */
export type AttachmentInput =
  | { kind: "path"; path: string; description?: string }
  | {
      kind: "upload";
      name: string;
      mimeType: string;
      data: Uint8Array;
      description?: string;
      width?: number;
      height?: number;
    };

/** A file a tool returns inline (spec notes §2.4); `data` is base64. */
export interface ToolAttachment {
  name: string;
  mimeType: string;
  data: string;
  width?: number;
  height?: number;
}

const ToolAttachmentSchema = z.object({
  name: z.string(),
  mimeType: z.string().min(1),
  data: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});

const ToolAttachmentRefSchema = z.object({
  id: z.string().min(1),
  type: z.literal("file"),
  path: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().nonnegative(),
  width: z.number().optional(),
  height: z.number().optional(),
  description: z.string().optional(),
});

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (whitespace ignored, padding optional); null when the text is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, "");
  if (!BASE64.test(compact) || compact.length % 4 === 1) return null;
  const unpadded = compact.replace(/=+$/, "");
  if (compact.length !== unpadded.length && compact.length % 4 !== 0) return null;
  return new Uint8Array(Buffer.from(compact, "base64"));
}

/** Why a name cannot be a file name under /attachments/, or null when it can. */
export function fileNameProblem(name: string): string | null {
  if (name.trim() === "") return "must not be empty";
  if (name.length > 255) return "must be at most 255 characters";
  if (name.includes("/") || name.includes("\\")) return "must be a file name, without '/' or '\\'";
  if (name === "." || name === "..") return 'cannot be "." or ".."';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[\u0000-\u001f\u007f]/.test(name)) return "must not contain control characters";
  return null;
}

/** A usable file name made from whatever a tool called its file. */
export function safeFileName(name: string): string {
  const cleaned = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we drop.
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[/\\]/g, "_")
    .trim()
    .slice(0, 255);
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "attachment" : cleaned;
}

/** The n-th path tried for a name: `/attachments/photo.png`, then `/attachments/photo (2).png`, … */
export function attachmentPathCandidate(name: string, attempt: number): string {
  if (attempt <= 1) return `${ATTACHMENTS_DIRECTORY}/${name}`;
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  return `${ATTACHMENTS_DIRECTORY}/${stem} (${attempt})${extension}`;
}

const MAX_NAME_ATTEMPTS = 100;

/** Writes a new file under /attachments/, picking the first free name; never replaces a file. */
async function writeUniqueAttachment(
  db: SqlExecutor,
  threadId: string,
  name: string,
  data: Uint8Array,
  mimeType: string,
  metadata: Record<string, unknown>,
): Promise<FileRecord> {
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
    const record = await createThreadFile(
      db,
      threadId,
      attachmentPathCandidate(name, attempt),
      data,
      mimeType,
      metadata,
    );
    if (record) return record;
  }
  const dot = name.lastIndexOf(".");
  const unique =
    dot > 0 ? `${name.slice(0, dot)}-${randomUUID()}${name.slice(dot)}` : `${name}-${randomUUID()}`;
  const record = await createThreadFile(
    db,
    threadId,
    `${ATTACHMENTS_DIRECTORY}/${unique}`,
    data,
    mimeType,
    metadata,
  );
  if (!record) throw new Error(`Could not find a free name for attachment "${name}".`);
  return record;
}

function dimensions(source: { width?: unknown; height?: unknown }): { width?: number; height?: number } {
  return {
    ...(typeof source.width === "number" ? { width: source.width } : {}),
    ...(typeof source.height === "number" ? { height: source.height } : {}),
  };
}

/**
 * Stores the attachments of one message and returns their refs, in order. Uploads are written under
 * /attachments/<name>; a path must name an existing file (else a 400 `attachment_not_found` naming
 * `attachments[i]`). Run it in the transaction that queues the message.
 */
export async function storeAttachments(
  db: SqlExecutor,
  threadId: string,
  inputs: readonly AttachmentInput[],
): Promise<AttachmentRef[]> {
  if (inputs.length > MAX_ATTACHMENTS_PER_MESSAGE) {
    throw new InvalidInputError(
      `A message takes at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments (got ${inputs.length}).`,
      { field: "attachments" },
      "too_many_attachments",
    );
  }
  const refs: AttachmentRef[] = [];
  for (const [index, input] of inputs.entries()) {
    const field = `attachments[${index}]`;
    const description = input.description !== undefined ? { description: input.description } : {};
    if (input.kind === "upload") {
      const problem = fileNameProblem(input.name);
      if (problem) throw new InvalidInputError(`${field}.name ${problem}.`, { field: `${field}.name` });
      const size = dimensions(input);
      const record = await writeUniqueAttachment(db, threadId, input.name, input.data, input.mimeType, size);
      refs.push({
        id: randomUUID(),
        type: "file",
        path: record.path,
        name: input.name,
        mimeType: record.mimeType,
        size: record.size,
        ...size,
        ...description,
      });
      continue;
    }
    let path: string;
    try {
      path = normaliseThreadPath(input.path);
    } catch (error) {
      throw new InvalidInputError(`${field}: ${(error as Error).message}`, { field }, "invalid_path");
    }
    const record = path === "/" ? null : await statThreadFile(db, threadId, path);
    if (!record) {
      throw new InvalidInputError(
        `${field}: there is no file at ${path} in this thread's filesystem. Write it first (PUT /api/threads/${threadId}/fs${path}) or upload it as { name, mimeType, data }.`,
        { field, path },
        "attachment_not_found",
      );
    }
    refs.push({
      id: randomUUID(),
      type: "file",
      path: record.path,
      name: record.name,
      mimeType: record.mimeType,
      size: record.size,
      ...dimensions(record.metadata),
      ...description,
    });
  }
  return refs;
}

/**
 * The attachments of a tool result (spec notes §2.4): inline files are written under /attachments/,
 * refs are kept. `pathLines` is what the reference runtime appends to the tool message content
 * (except for sessionStop/sessionFail tools): `\n\nAttachment path for "<name>": <path>` per file.
 * Throws InvalidInputError for a malformed attachment (bad base64, a ref with a bad path).
 */
export async function storeToolAttachments(
  db: SqlExecutor,
  threadId: string,
  attachments: ReadonlyArray<ToolAttachment | AttachmentRef>,
): Promise<{ refs: AttachmentRef[]; pathLines: string }> {
  const refs: AttachmentRef[] = [];
  for (const [index, attachment] of attachments.entries()) {
    const field = `attachments[${index}]`;
    const asRef = ToolAttachmentRefSchema.safeParse(attachment);
    if (asRef.success) {
      let path: string;
      try {
        path = normaliseThreadPath(asRef.data.path);
      } catch (error) {
        throw new InvalidInputError(
          `Tool result ${field}: ${(error as Error).message}`,
          { field },
          "invalid_path",
        );
      }
      refs.push({ ...asRef.data, path });
      continue;
    }
    const inline = ToolAttachmentSchema.safeParse(attachment);
    if (!inline.success) {
      throw new InvalidInputError(
        `Tool result ${field} is neither a file { name, mimeType, data } nor an attachment ref { id, type: "file", path, … }.`,
        { field },
        "invalid_tool_attachment",
      );
    }
    const data = decodeBase64(inline.data.data);
    if (!data) {
      throw new InvalidInputError(
        `Tool result ${field}.data is not valid base64.`,
        { field },
        "invalid_tool_attachment",
      );
    }
    const name = safeFileName(inline.data.name);
    const size = dimensions(inline.data);
    const record = await writeUniqueAttachment(db, threadId, name, data, inline.data.mimeType, size);
    refs.push({
      id: randomUUID(),
      type: "file",
      path: record.path,
      name,
      mimeType: record.mimeType,
      size: record.size,
      ...size,
    });
  }
  const pathLines = refs.map((ref) => `\n\nAttachment path for "${ref.name}": ${ref.path}`).join("");
  return { refs, pathLines };
}

/** Whether an attachment is an image (sent to models as an image part when recent). */
export const isImageAttachment = (ref: AttachmentRef) => ref.mimeType.startsWith("image/");

/**
 * The image paths assembleContext may send for a side: of the top-level, non-system messages the
 * side did not write, the most recent `recentImageThreshold` with image attachments (the same rule
 * as context.ts; includeChat: false only narrows it to a suffix, so this is never too small).
 * Without a side, the union for both sides.
 */
export function contextImagePaths(
  messages: readonly StoredMessage[],
  recentImageThreshold: number,
  actingSide?: Side,
): string[] {
  const limit = Math.max(0, Math.floor(recentImageThreshold));
  if (limit === 0) return [];
  const candidates = messages.filter(
    (message) =>
      message.depth === 0 && message.role !== "system" && message.attachments.some(isImageAttachment),
  );
  const paths = new Set<string>();
  for (const side of actingSide ? [actingSide] : (["a", "b"] as const)) {
    const carriers = candidates.filter((message) => message.side !== side).slice(-limit);
    for (const message of carriers) {
      for (const ref of message.attachments) if (isImageAttachment(ref)) paths.add(ref.path);
    }
  }
  return [...paths];
}

/**
 * Base64 data by path of the images context assembly will send (see contextImagePaths); files that
 * are gone are left out (assembleContext then sends no part for them). From the step runner:
 * `imageData: await loadContextImages(db, threadId, history, options.recentImageThreshold, active.side)`.
 */
export async function loadContextImages(
  db: SqlExecutor,
  threadId: string,
  messages: readonly StoredMessage[],
  recentImageThreshold: number,
  actingSide?: Side,
): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  for (const path of contextImagePaths(messages, recentImageThreshold, actingSide)) {
    let file: Awaited<ReturnType<typeof readThreadFile>>;
    try {
      file = await readThreadFile(db, threadId, path);
    } catch {
      continue; // a stored ref with a path that does not normalise: treat it as missing
    }
    if (file) images.set(path, Buffer.from(file.data).toString("base64"));
  }
  return images;
}

/**
 * Copies files of one thread into another's /attachments/ (spec §7.12: subagent communication copies
 * filesystem references, and the destination gets destination-local paths). A path with no file is
 * an InvalidInputError naming it, unless `skipMissing` (a child's report must never fail to commit).
 */
export async function copyFilesBetweenThreads(
  db: SqlExecutor,
  fromThreadId: string,
  toThreadId: string,
  paths: readonly string[],
  options: { skipMissing?: boolean } = {},
): Promise<AttachmentRef[]> {
  if (paths.length > MAX_ATTACHMENTS_PER_MESSAGE) {
    throw new InvalidInputError(
      `At most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments can be handed over at once (got ${paths.length}).`,
      { field: "attachments" },
      "too_many_attachments",
    );
  }
  const refs: AttachmentRef[] = [];
  for (const raw of paths) {
    let file: Awaited<ReturnType<typeof readThreadFile>> = null;
    try {
      file = await readThreadFile(db, fromThreadId, raw);
    } catch (error) {
      if (options.skipMissing) continue;
      throw new InvalidInputError(
        `Attachment ${raw}: ${(error as Error).message}`,
        { path: raw },
        "invalid_path",
      );
    }
    if (!file) {
      if (options.skipMissing) continue;
      throw new InvalidInputError(
        `There is no file at ${raw} in this thread's filesystem.`,
        { path: raw },
        "attachment_not_found",
      );
    }
    const size = dimensions(file.record.metadata);
    const record = await writeUniqueAttachment(
      db,
      toThreadId,
      safeFileName(file.record.name),
      file.data,
      file.record.mimeType,
      size,
    );
    refs.push({
      id: randomUUID(),
      type: "file",
      path: record.path,
      name: file.record.name,
      mimeType: record.mimeType,
      size: record.size,
      ...size,
    });
  }
  return refs;
}
