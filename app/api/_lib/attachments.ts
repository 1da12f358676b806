// The `attachments` field of message bodies (POST /api/threads, POST /api/threads/:id/messages):
// each item is a path in the thread's filesystem (a string or { path, description? }) or an upload
// { name, mimeType, data (base64), description?, width?, height? }. Uploads are decoded and paths
// normalised here; whether a path exists is checked when the message is stored. The bodies around
// it are declared in lib/contracts/thread-requests.ts; `withServerAttachments` puts this in them.
import { z } from "zod";
import {
  type AttachmentInput,
  decodeBase64,
  fileNameProblem,
  InvalidPathError,
  MAX_ATTACHMENTS_PER_MESSAGE,
  normaliseThreadPath,
} from "@/runtime/runtime";

const ThreadPath = z.string().transform((raw, context) => {
  try {
    const path = normaliseThreadPath(raw);
    if (path === "/") {
      context.addIssue({ code: "custom", message: "must name a file, not the root directory", input: raw });
      return z.NEVER;
    }
    return path;
  } catch (error) {
    if (!(error instanceof InvalidPathError)) throw error;
    context.addIssue({ code: "custom", message: error.message, input: raw });
    return z.NEVER;
  }
});

const Description = z.string().max(2000, "must be at most 2000 characters").optional();
const Dimension = z.number().int("must be an integer").positive("must be positive").optional();

const PathReference = z.strictObject({ path: ThreadPath, description: Description });

const Upload = z.strictObject({
  name: z.string().transform((name, context) => {
    const problem = fileNameProblem(name);
    if (problem) {
      context.addIssue({ code: "custom", message: problem, input: name });
      return z.NEVER;
    }
    return name;
  }),
  mimeType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, "must be a MIME type such as image/png")
    .transform((mimeType) => mimeType.toLowerCase()),
  data: z.string().transform((text, context) => {
    const data = decodeBase64(text);
    if (!data) {
      context.addIssue({ code: "custom", message: "is not valid base64", input: text });
      return z.NEVER;
    }
    if (data.byteLength === 0) {
      context.addIssue({ code: "custom", message: "is empty (an attachment needs content)", input: text });
      return z.NEVER;
    }
    return data;
  }),
  description: Description,
  width: Dimension,
  height: Dimension,
});

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** Dispatches on the item's shape, so an error names the one form the client meant. */
const AttachmentItem = z.unknown().transform((value, context): AttachmentInput => {
  const report = (issues: z.core.$ZodIssue[]) => {
    for (const issue of issues)
      context.addIssue({ code: "custom", path: issue.path, message: issue.message, input: value });
    return z.NEVER;
  };
  if (typeof value === "string") {
    const parsed = ThreadPath.safeParse(value);
    return parsed.success ? { kind: "path", path: parsed.data } : report(parsed.error.issues);
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    if ("data" in value) {
      const parsed = Upload.safeParse(value);
      return parsed.success
        ? withoutUndefined({ kind: "upload" as const, ...parsed.data })
        : report(parsed.error.issues);
    }
    if ("path" in value) {
      const parsed = PathReference.safeParse(value);
      return parsed.success
        ? withoutUndefined({ kind: "path" as const, ...parsed.data })
        : report(parsed.error.issues);
    }
  }
  context.addIssue({
    code: "custom",
    message:
      "must be a file path (a string), { path, description? }, or an upload { name, mimeType, data (base64), description?, width?, height? }",
    input: value,
  });
  return z.NEVER;
});

export const AttachmentInputsSchema = z
  .array(AttachmentItem, { error: "attachments must be an array" })
  .max(
    MAX_ATTACHMENTS_PER_MESSAGE,
    `at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments per message (the body size limit applies too)`,
  );

/**
 * A message body of lib/contracts (its `attachments` the wire shape a client writes) whose
 * attachments are parsed with the rules above: paths normalised, uploads decoded, names checked.
 */
export function withServerAttachments<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return schema.extend({ attachments: AttachmentInputsSchema.optional() });
}
