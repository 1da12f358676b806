// A thread's filesystem as the fs routes see it (GET|PUT|DELETE /api/threads/:id/fs/*path): the file
// store bound to this runtime's database, so routes never reach past the facade into the store.
import type { SqlExecutor } from "@/lib/db/sql-client";
import {
  createThreadFile,
  deleteThreadFile,
  type FileRecord,
  listThreadFiles,
  readThreadFile,
  writeThreadFile,
} from "../store/file-store";

export class ThreadFileService {
  constructor(private readonly db: SqlExecutor) {}

  /** The direct children of a directory (`/` by default). */
  list(threadId: string, directory = "/"): Promise<FileRecord[]> {
    return listThreadFiles(this.db, threadId, directory);
  }

  read(threadId: string, path: string) {
    return readThreadFile(this.db, threadId, path);
  }

  /** Writes (or replaces) a file. */
  write(threadId: string, path: string, data: Uint8Array, mimeType: string): Promise<FileRecord> {
    return writeThreadFile(this.db, threadId, path, data, mimeType);
  }

  /** Creates a file only where nothing is: null when the path is taken. */
  create(threadId: string, path: string, data: Uint8Array, mimeType: string): Promise<FileRecord | null> {
    return createThreadFile(this.db, threadId, path, data, mimeType);
  }

  delete(threadId: string, path: string): Promise<boolean> {
    return deleteThreadFile(this.db, threadId, path);
  }
}
