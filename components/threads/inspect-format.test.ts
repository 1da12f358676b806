import { describe, expect, it } from "vitest";
import { threadFileUrl } from "@/lib/api/client";
import {
  formatBytes,
  formatJson,
  formatMilliseconds,
  formatSide,
  messageContentText,
} from "./inspect-format";

describe("inspector formatting", () => {
  it("formats milliseconds", () => {
    expect(formatMilliseconds(null)).toBe("—");
    expect(formatMilliseconds(0)).toBe("0 ms");
    expect(formatMilliseconds(849.6)).toBe("850 ms");
    expect(formatMilliseconds(1250)).toBe("1.25 s");
    expect(formatMilliseconds(123_000)).toBe("2m 03s");
  });

  it("formats byte sizes", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(2 * 1024 * 1024)).toBe("2.0 MB");
  });

  it("pretty-prints JSON values and JSON text, and keeps other text", () => {
    expect(formatJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatJson("plain words")).toBe("plain words");
    expect(formatJson(undefined)).toBe("");
    expect(formatJson(null)).toBe("null");
  });

  it("reads message content as text", () => {
    expect(messageContentText("hello")).toBe("hello");
    expect(
      messageContentText([
        { type: "text", text: "look" },
        { type: "image", mimeType: "image/png", data: "xx" },
      ]),
    ).toBe("look\n[image image/png]");
    expect(messageContentText(undefined)).toBe("");
  });

  it("labels sides", () => {
    expect(formatSide("a")).toBe("A");
    expect(formatSide("b", { a: "Worker", b: "Reviewer" })).toBe("Reviewer");
  });

  it("encodes file download addresses segment by segment", () => {
    expect(threadFileUrl("t1", "/notes/a b.txt")).toBe("/api/threads/t1/fs/notes/a%20b.txt");
    expect(threadFileUrl("t1", "/x#.md")).toBe("/api/threads/t1/fs/x%23.md");
  });
});
