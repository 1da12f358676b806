import { describe, expect, it } from "vitest";
import { InvalidPathError, normaliseThreadPath } from "./thread-paths";

describe("normaliseThreadPath", () => {
  it.each([
    ["/notes.md", "/notes.md"],
    ["notes.md", "/notes.md"],
    ["/a//b/./c.txt", "/a/b/c.txt"],
    ["/dir/", "/dir"],
    ["/", "/"],
    ["", "/"],
    ["./a", "/a"],
    ["/report (2).pdf", "/report (2).pdf"],
    ["/100%.txt", "/100%.txt"],
    ["/ünïcødé/文件.txt", "/ünïcødé/文件.txt"],
    ["/notes:2026.md", "/notes:2026.md"],
    ["/...", "/..."],
    ["/a..b", "/a..b"],
  ])("%j becomes %j", (input, expected) => expect(normaliseThreadPath(input)).toBe(expected));

  it.each([
    ["..", /leaves the thread filesystem/],
    ["/../etc/passwd", /leaves the thread filesystem/],
    ["/a/../../b", /leaves the thread filesystem/],
    ["a/..", /leaves the thread filesystem/],
    ["/a\0.txt", /NUL/],
    ["/a\nb", /control characters/],
    ["/a\tb", /control characters/],
    ["/a\u007fb", /control characters/],
    ["..\\..\\windows\\win.ini", /backslash/],
    ["\\\\server\\share", /backslash/],
    ["/a\\b", /backslash/],
    ["/%2e%2e/etc/passwd", /percent-encoded/],
    ["/%2E%2E%2Fsecret", /percent-encoded/],
    ["/a%2fb", /percent-encoded/],
    ["/a%5cb", /percent-encoded/],
    ["/a%00b", /percent-encoded/],
    ["C:/Windows/system.ini", /outside the thread filesystem/],
    ["c:", /outside the thread filesystem/],
    ["file:///etc/passwd", /outside the thread filesystem/],
    ["http://169.254.169.254/latest", /outside the thread filesystem/],
    [`/${"a".repeat(1100)}`, /at most 1024 characters/],
    [`/${"a".repeat(300)}`, /names are at most 255 characters/],
  ])("refuses %j", (input, message) => {
    expect(() => normaliseThreadPath(input)).toThrow(InvalidPathError);
    expect(() => normaliseThreadPath(input)).toThrow(message);
  });

  it("refuses a non-string without crashing", () => {
    expect(() => normaliseThreadPath(42 as unknown as string)).toThrow(InvalidPathError);
  });

  it("checks the length before doing any other work (a megabyte of ../ is refused cheaply)", () => {
    expect(() => normaliseThreadPath("../".repeat(400_000))).toThrow(/at most 1024 characters/);
  });
});
