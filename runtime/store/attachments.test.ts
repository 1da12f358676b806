import { describe, expect, it } from "vitest";
import { conversation } from "../../test/support/stored-messages";
import { assembleContext } from "../engine/context";
import {
  attachmentPathCandidate,
  contextImagePaths,
  decodeBase64,
  fileNameProblem,
  safeFileName,
} from "./attachments";
import type { AttachmentRef, Side, StoredMessage } from "./messages";

const image = (path: string): AttachmentRef => ({
  id: path,
  type: "file",
  path,
  name: path.slice(1),
  mimeType: "image/png",
  size: 3,
});
const text = (path: string): AttachmentRef => ({ ...image(path), mimeType: "text/plain" });

describe("decodeBase64", () => {
  it("decodes padded, unpadded and wrapped base64", () => {
    expect(Buffer.from(decodeBase64("aGVsbG8=")!).toString()).toBe("hello");
    expect(Buffer.from(decodeBase64("aGVsbG8")!).toString()).toBe("hello");
    expect(Buffer.from(decodeBase64("aGVs\nbG8=")!).toString()).toBe("hello");
  });

  it("refuses text that is not base64", () => {
    expect(decodeBase64("not base64!")).toBeNull();
    expect(decodeBase64("aGVsbG8=x")).toBeNull();
    expect(decodeBase64("a")).toBeNull();
    expect(decodeBase64("aGV=")).not.toBeNull();
    expect(decodeBase64("aG=")).toBeNull();
  });
});

describe("file names", () => {
  it("accepts plain names and says what is wrong with the others", () => {
    expect(fileNameProblem("photo (1).png")).toBeNull();
    expect(fileNameProblem("../x")).toMatch(/without '\/'/);
    expect(fileNameProblem("..")).toMatch(/cannot be/);
    expect(fileNameProblem(" ")).toMatch(/empty/);
    expect(fileNameProblem("a\u0000b")).toMatch(/control/);
  });

  it("turns a tool's file name into a safe one", () => {
    expect(safeFileName("../../etc/passwd")).toBe(".._.._etc_passwd");
    expect(safeFileName("..")).toBe("attachment");
    expect(safeFileName("  chart.png ")).toBe("chart.png");
  });

  it("numbers a taken name before its extension", () => {
    expect(attachmentPathCandidate("photo.png", 1)).toBe("/attachments/photo.png");
    expect(attachmentPathCandidate("photo.png", 2)).toBe("/attachments/photo (2).png");
    expect(attachmentPathCandidate("README", 3)).toBe("/attachments/README (3)");
    expect(attachmentPathCandidate(".env", 2)).toBe("/attachments/.env (2)");
  });
});

describe("contextImagePaths", () => {
  const history = conversation(
    { role: "user", side: "b", content: "one", attachments: [image("/1.png"), text("/notes.txt")] },
    { role: "assistant", side: "a", content: "ok", attachments: [image("/a.png")] },
    { role: "user", side: "b", content: "two", attachments: [image("/2.png")] },
    { role: "user", side: "b", content: "no files" },
    { role: "user", side: null, content: "three", attachments: [image("/3.png"), image("/3b.png")] },
    { role: "user", side: "b", content: "deep", depth: 1, attachments: [image("/deep.png")] },
    { role: "system", side: null, content: "note", attachments: [image("/system.png")] },
  );

  it("takes the images of the most recent messages the acting side did not write", () => {
    expect(contextImagePaths(history, 2, "a")).toEqual(["/2.png", "/3.png", "/3b.png"]);
    expect(contextImagePaths(history, 10, "a")).toEqual(["/1.png", "/2.png", "/3.png", "/3b.png"]);
    expect(contextImagePaths(history, 1, "b")).toEqual(["/3.png", "/3b.png"]);
    expect(contextImagePaths(history, 2, "b")).toEqual(["/a.png", "/3.png", "/3b.png"]);
    expect(contextImagePaths(history, 0, "a")).toEqual([]);
  });

  it("covers both sides when no side is given", () => {
    expect(new Set(contextImagePaths(history, 1))).toEqual(new Set(["/3.png", "/3b.png"]));
    expect(new Set(contextImagePaths(history, 2))).toEqual(
      new Set(["/2.png", "/3.png", "/3b.png", "/a.png"]),
    );
  });

  // Drift guard: assembleContext must render exactly the same images from the loaded paths as from
  // every image in the thread, whatever the side, threshold and includeChat.
  it("loads every image assembleContext would send", () => {
    const every = new Map(
      history.flatMap((message) => message.attachments.map((file) => [file.path, `data:${file.path}`])),
    );
    const render = (
      messages: StoredMessage[],
      side: Side,
      threshold: number,
      includeChat: boolean,
      images: Map<string, string>,
    ) =>
      assembleContext({
        systemPrompt: "s",
        messages,
        actingSide: side,
        turnStartSeq: 3,
        options: { includeChat, includePastTools: true, recentImageThreshold: threshold },
        imageData: images,
      });
    for (const side of ["a", "b"] as const) {
      for (const threshold of [1, 2, 3, 10]) {
        for (const includeChat of [true, false]) {
          for (const narrowed of [
            contextImagePaths(history, threshold, side),
            contextImagePaths(history, threshold),
          ]) {
            const loaded = new Map(narrowed.map((path) => [path, every.get(path)!]));
            expect(render(history, side, threshold, includeChat, loaded)).toEqual(
              render(history, side, threshold, includeChat, every),
            );
          }
        }
      }
    }
  });
});
