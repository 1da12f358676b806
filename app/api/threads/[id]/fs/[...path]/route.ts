// GET|PUT|DELETE /api/threads/:id/fs/*path — read, write (raw bytes; Content-Type is kept) and
// delete one file of the thread's filesystem. Paths cannot leave the thread's tree.
import { InvalidInputError, NotFoundError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";
import { deleteThreadFile, readThreadFile, writeThreadFile } from "@/runtime/threads/file-store";
import { handle, readBodyText } from "../../../../_lib/http";
import { asThreadPathError } from "../path-errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; path: string[] }> };

/** Files are limited like JSON bodies; large media belongs in object storage. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

async function target(context: Context) {
  const { id, path } = await context.params;
  const runtime = await getRuntime();
  await runtime.threads.require(id);
  return { runtime, id, path: `/${path.map((segment) => decodeURIComponent(segment)).join("/")}` };
}

export const GET = handle(async (_request: Request, context: Context) => {
  const { runtime, id, path } = await target(context);
  const file = await readThreadFile(runtime.database.sql, id, path).catch(asThreadPathError);
  if (!file) throw new NotFoundError("File", path);
  return new Response(Buffer.from(file.data), {
    headers: { "content-type": file.record.mimeType, "content-length": String(file.record.size) },
  });
});

export const PUT = handle(async (request: Request, context: Context) => {
  const { runtime, id, path } = await target(context);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_FILE_BYTES) await readBodyText(request, MAX_FILE_BYTES);
  const data = new Uint8Array(await request.arrayBuffer());
  if (data.byteLength > MAX_FILE_BYTES)
    throw new InvalidInputError(`Files are at most ${MAX_FILE_BYTES} bytes.`);
  const mimeType = request.headers.get("content-type")?.split(";")[0]?.trim() || "application/octet-stream";
  const record = await writeThreadFile(runtime.database.sql, id, path, data, mimeType).catch(
    asThreadPathError,
  );
  return Response.json(record, { status: 201 });
});

export const DELETE = handle(async (_request: Request, context: Context) => {
  const { runtime, id, path } = await target(context);
  const deleted = await deleteThreadFile(runtime.database.sql, id, path).catch(asThreadPathError);
  if (!deleted) throw new NotFoundError("File", path);
  return Response.json({ deleted: true, path });
});
