// Attachments against a real database (PGlite, or the Postgres server named by DATABASE_URL):
// uploads under /attachments/ without clobbering, path refs, tool-result attachments, and the image
// data the step runner hands to context assembly.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openIsolatedDatabase } from "../../test/support/open-database";
import { conversation } from "../../test/support/stored-messages";
import { insertTestProject, insertTestThread } from "../../test/support/thread-rows";
import { isTandemError } from "../errors";
import {
  type AttachmentInput,
  loadContextImages,
  storeAttachments,
  storeToolAttachments,
} from "./attachments";
import { readThreadFile, writeThreadFile } from "./file-store";

let database: Database;
let projectId: string;

beforeAll(async () => {
  database = await openIsolatedDatabase();
  projectId = await insertTestProject(database.sql);
});
afterAll(async () => {
  await database?.close();
});

const newThread = () => insertTestThread(database.sql, projectId);

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const upload = (
  name: string,
  content: string,
  mimeType = "image/png",
): Extract<AttachmentInput, { kind: "upload" }> => ({
  kind: "upload",
  name,
  mimeType,
  data: bytes(content),
});

async function fileText(threadId: string, path: string) {
  const file = await readThreadFile(database.sql, threadId, path);
  return file ? Buffer.from(file.data).toString() : null;
}

async function filePaths(threadId: string) {
  const rows = await database.sql.query<{ path: string }>(
    "SELECT path FROM thread_files WHERE thread_id = $1 ORDER BY path",
    [threadId],
  );
  return rows.map((row) => row.path);
}

describe("storeAttachments", () => {
  it("writes uploads under /attachments/ without replacing files, and resolves path refs", async () => {
    const threadId = await newThread();
    await writeThreadFile(database.sql, threadId, "/attachments/photo.png", bytes("old"), "image/png");
    await writeThreadFile(database.sql, threadId, "/docs/plan.md", bytes("# plan"), "text/markdown", {
      width: 10,
      height: 20,
    });
    const refs = await database.sql.transaction((tx) =>
      storeAttachments(tx, threadId, [
        { ...upload("photo.png", "new"), description: "the new one", width: 4, height: 3 },
        upload("photo.png", "newer"),
        { kind: "path", path: "docs/./plan.md", description: "the plan" },
      ]),
    );
    expect(refs.map(({ id: _id, ...ref }) => ref)).toEqual([
      {
        type: "file",
        path: "/attachments/photo (2).png",
        name: "photo.png",
        mimeType: "image/png",
        size: 3,
        width: 4,
        height: 3,
        description: "the new one",
      },
      { type: "file", path: "/attachments/photo (3).png", name: "photo.png", mimeType: "image/png", size: 5 },
      {
        type: "file",
        path: "/docs/plan.md",
        name: "plan.md",
        mimeType: "text/markdown",
        size: 6,
        width: 10,
        height: 20,
        description: "the plan",
      },
    ]);
    expect(new Set(refs.map((ref) => ref.id)).size).toBe(3);
    expect(await fileText(threadId, "/attachments/photo.png")).toBe("old");
    expect(await fileText(threadId, "/attachments/photo (2).png")).toBe("new");
    expect(await fileText(threadId, "/attachments/photo (3).png")).toBe("newer");
  });

  it("does not write a file where a directory is", async () => {
    const threadId = await newThread();
    await writeThreadFile(database.sql, threadId, "/attachments/report/page.txt", bytes("p"), "text/plain");
    const [ref] = await storeAttachments(database.sql, threadId, [upload("report", "r", "text/plain")]);
    expect(ref?.path).toBe("/attachments/report (2)");
  });

  it("refuses an unknown path, a directory or a traversal, and the transaction stores nothing", async () => {
    const threadId = await newThread();
    await writeThreadFile(database.sql, threadId, "/docs/plan.md", bytes("# plan"), "text/markdown");
    for (const [path, code] of [
      ["/missing.png", "attachment_not_found"],
      ["/docs", "attachment_not_found"],
      ["/", "attachment_not_found"],
      ["../x", "invalid_path"],
    ] as const) {
      const attempt = database.sql.transaction((tx) =>
        storeAttachments(tx, threadId, [upload("a.png", "a"), { kind: "path", path }]),
      );
      const error = await attempt.catch((caught: unknown) => caught);
      expect(isTandemError(error), String(error)).toBe(true);
      expect(error).toMatchObject({ kind: "invalid_input", code, details: { field: "attachments[1]" } });
    }
    expect(await filePaths(threadId)).toEqual(["/docs/plan.md"]);
  });

  it("takes at most 20 attachments", async () => {
    const threadId = await newThread();
    const inputs = Array.from({ length: 21 }, (_, index) => upload(`${index}.png`, "x"));
    await expect(storeAttachments(database.sql, threadId, inputs)).rejects.toMatchObject({
      code: "too_many_attachments",
    });
    expect(await filePaths(threadId)).toEqual([]);
  });
});

describe("storeToolAttachments", () => {
  it("stores inline files, keeps refs, and writes the reference runtime's path lines", async () => {
    const threadId = await newThread();
    const existing = {
      id: randomUUID(),
      type: "file" as const,
      path: "/charts/old.png",
      name: "old.png",
      mimeType: "image/png",
      size: 1,
    };
    const { refs, pathLines } = await storeToolAttachments(database.sql, threadId, [
      {
        name: "chart.png",
        mimeType: "image/png",
        data: Buffer.from("png").toString("base64"),
        width: 2,
        height: 1,
      },
      existing,
      { name: "../evil.txt", mimeType: "text/plain", data: Buffer.from("e").toString("base64") },
    ]);
    expect(refs[0]).toMatchObject({ path: "/attachments/chart.png", name: "chart.png", size: 3, width: 2 });
    expect(refs[1]).toEqual(existing);
    expect(refs[2]).toMatchObject({ path: "/attachments/.._evil.txt", name: ".._evil.txt" });
    expect(pathLines).toBe(
      '\n\nAttachment path for "chart.png": /attachments/chart.png' +
        '\n\nAttachment path for "old.png": /charts/old.png' +
        '\n\nAttachment path for ".._evil.txt": /attachments/.._evil.txt',
    );
    expect(await fileText(threadId, "/attachments/chart.png")).toBe("png");
  });

  it("refuses an inline file whose data is not base64", async () => {
    const threadId = await newThread();
    await expect(
      storeToolAttachments(database.sql, threadId, [{ name: "a.png", mimeType: "image/png", data: "%%" }]),
    ).rejects.toMatchObject({ code: "invalid_tool_attachment", message: expect.stringContaining("base64") });
  });
});

describe("loadContextImages", () => {
  it("reads the images of the most recent messages with images, as base64 by path", async () => {
    const threadId = await newThread();
    const [first, textFile] = await storeAttachments(database.sql, threadId, [
      upload("first.png", "one"),
      upload("notes.txt", "text", "text/plain"),
    ]);
    const [second] = await storeAttachments(database.sql, threadId, [upload("second.png", "two")]);
    const [gone] = await storeAttachments(database.sql, threadId, [upload("gone.png", "x")]);
    await database.sql.query("DELETE FROM thread_files WHERE thread_id = $1 AND path = $2", [
      threadId,
      gone!.path,
    ]);
    const history = conversation(
      { role: "user", side: "b", content: "first", attachments: [first!, textFile!] },
      { role: "assistant", side: "a", content: "seen" },
      { role: "user", side: "b", content: "second", attachments: [second!, gone!] },
    );

    const recent = await loadContextImages(database.sql, threadId, history, 1, "a");
    expect(recent).toEqual(new Map([["/attachments/second.png", Buffer.from("two").toString("base64")]]));

    const all = await loadContextImages(database.sql, threadId, history, 10, "a");
    expect([...all.keys()].sort()).toEqual(["/attachments/first.png", "/attachments/second.png"]);
    expect(all.get("/attachments/first.png")).toBe(Buffer.from("one").toString("base64"));

    // Side B wrote them: nothing to send to side B.
    expect((await loadContextImages(database.sql, threadId, history, 10, "b")).size).toBe(0);
  });
});
