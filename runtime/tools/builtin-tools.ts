// The built-in thread-filesystem tools a definition can offer (`kind: "builtin"`): their argument
// schemas (fixed by the runtime) and their behaviour over a thread filesystem.
import { z } from "zod";

export const BUILTIN_TOOL_SCHEMAS: Record<
  "fs_read" | "fs_write" | "fs_list" | "fs_delete" | "fs_grep",
  Record<string, unknown>
> = {
  fs_read: {
    type: "object",
    properties: {
      path: { type: "string", description: "Absolute path in the thread filesystem, e.g. /notes.md" },
    },
    required: ["path"],
  },
  fs_write: {
    type: "object",
    properties: {
      path: { type: "string", description: "Absolute path in the thread filesystem" },
      content: { type: "string", description: "Text content to write" },
      mimeType: { type: "string", description: "MIME type (default text/plain)" },
    },
    required: ["path", "content"],
  },
  fs_list: {
    type: "object",
    properties: { path: { type: "string", description: "Directory to list (default /)" } },
  },
  fs_delete: {
    type: "object",
    properties: { path: { type: "string", description: "File to delete" } },
    required: ["path"],
  },
  fs_grep: {
    type: "object",
    properties: {
      pattern: { type: "string", description: "Text to search for (plain text, case-sensitive)" },
    },
    required: ["pattern"],
  },
};

export const BuiltinArgs = {
  fs_read: z.object({ path: z.string() }),
  fs_write: z.object({ path: z.string(), content: z.string(), mimeType: z.string().optional() }),
  fs_list: z.object({ path: z.string().optional() }),
  fs_delete: z.object({ path: z.string() }),
  fs_grep: z.object({ pattern: z.string().min(1) }),
};
