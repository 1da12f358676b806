// A thread's filesystem on the wire (`/api/threads/:id/fs`): `FileRecord` is declared here once for
// the runtime's file store and extension modules (runtime/store/file-store.ts,
// runtime/extensions/define.ts) and the browser's listing entry is derived from it.
import { z } from "zod";

/** A file, or a directory standing for the files below it, in a thread's filesystem. */
export const FileRecordSchema = z.object({
  path: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number(),
  isDirectory: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
});
export type FileRecord = z.infer<typeof FileRecordSchema>;

/** One entry of `GET /api/threads/:id/fs` (a file, or a directory standing for the files below it). */
export const ThreadFileEntrySchema = z.looseObject(FileRecordSchema.omit({ metadata: true }).shape);
export type ThreadFileEntry = z.infer<typeof ThreadFileEntrySchema>;

export const ThreadFileListSchema = z.object({ path: z.string(), entries: z.array(ThreadFileEntrySchema) });
