// GET|PUT|DELETE /api/threads/:id/fs/*path — read, write (raw bytes; Content-Type is kept) and
// delete one file of the thread's filesystem. A PUT with `If-None-Match: *` only creates: 412
// `file_exists` when the path is taken (the chat composer picks upload names with it). Paths cannot leave the thread's tree: Next.js hands us
// the segments percent-decoded once, and normaliseThreadPath refuses what is left of any trick
// (`..`, a second layer of encoding, backslashes, NUL) with a 400 `invalid_path`.
import { NotFoundError, PreconditionFailedError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";
import { handle, readBodyBytes, UPLOAD_BODY_LIMIT } from "../../../../_lib/http";
import { asThreadPathError } from "../path-errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; path: string[] }> };

async function target(context: Context) {
  const { id, path } = await context.params;
  const runtime = await getRuntime();
  await runtime.threads.require(id);
  return { runtime, id, path: `/${path.join("/")}` };
}

export const GET = handle(async (_request: Request, context: Context) => {
  const { runtime, id, path } = await target(context);
  const file = await runtime.files.read(id, path).catch(asThreadPathError);
  if (!file) throw new NotFoundError("File", path);
  return new Response(Buffer.from(file.data), {
    headers: { "content-type": file.record.mimeType, "content-length": String(file.record.size) },
  });
});

export const PUT = handle(async (request: Request, context: Context) => {
  const { runtime, id, path } = await target(context);
  // Uploads share TANDEM_MAX_UPLOAD_BYTES (10 MiB); large media belongs in object storage.
  const data = await readBodyBytes(request, UPLOAD_BODY_LIMIT);
  const mimeType = request.headers.get("content-type")?.split(";")[0]?.trim() || "application/octet-stream";
  if (request.headers.get("if-none-match")?.trim() === "*") {
    const created = await runtime.files.create(id, path, data, mimeType).catch(asThreadPathError);
    if (!created) {
      throw new PreconditionFailedError(
        `There is already a file or directory at ${path}; choose another path (If-None-Match: * never replaces one).`,
        { path },
        "file_exists",
      );
    }
    return Response.json(created, { status: 201 });
  }
  const record = await runtime.files.write(id, path, data, mimeType).catch(asThreadPathError);
  return Response.json(record, { status: 201 });
});

export const DELETE = handle(async (_request: Request, context: Context) => {
  const { runtime, id, path } = await target(context);
  const deleted = await runtime.files.delete(id, path).catch(asThreadPathError);
  if (!deleted) throw new NotFoundError("File", path);
  return Response.json({ deleted: true, path });
});
