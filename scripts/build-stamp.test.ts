// The integration suite's build freshness check, on a throwaway project folder: a build is current
// exactly when the sources hash as they did when `npm run build` started.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changedFiles, checkBuild, SOURCE_ENTRIES, sourceFingerprint, writeStamp } from "./build-stamp.mjs";

let root: string;

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

/** What `npm run build` leaves: a Next build and the stamp of the sources it started from. */
function build() {
  const fingerprint = sourceFingerprint(root);
  fs.mkdirSync(path.join(root, ".next"), { recursive: true });
  fs.writeFileSync(path.join(root, ".next", "BUILD_ID"), "test-build");
  writeStamp(root, fingerprint);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-build-stamp-"));
  write("app/page.tsx", "export default function Page() { return null; }\n");
  write("lib/standard/parse.ts", "export const a = 1;\n");
  write("lib/standard/parse.test.ts", "test\n");
  write("runtime/engine/step.ts", "export const b = 2;\n");
  write("package.json", "{}\n");
  write("docs/runtime.md", "# Runtime\n");
  write("test/api/x.integration.test.ts", "test\n");
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("checkBuild", () => {
  it("says yes right after a build", () => {
    build();
    expect(checkBuild(root)).toEqual({ ok: true });
  });

  it("refuses when there is no build, and when the build has no stamp", () => {
    const none = checkBuild(root);
    expect(none).toEqual({ ok: false, message: expect.stringContaining("No production build found") });
    build();
    fs.rmSync(path.join(root, ".next", "tandem-sources.json"));
    expect(checkBuild(root)).toEqual({
      ok: false,
      message: expect.stringContaining("has no source stamp"),
    });
  });

  it("refuses after a source changes, naming the file and the command", () => {
    build();
    write("runtime/engine/step.ts", "export const b = 3;\n");
    const result = checkBuild(root);
    expect(result).toEqual({
      ok: false,
      message:
        "The build in .next is older than the code: runtime/engine/step.ts changed since it was made, so the tests would run the old code. Run `npm run build` first (`npm test` builds for you).",
    });
  });

  it("refuses after a source is added or removed", () => {
    build();
    write("components/new-panel.tsx", "export {};\n");
    expect(checkBuild(root)).toMatchObject({
      ok: false,
      message: expect.stringContaining("components/new-panel.tsx"),
    });
    fs.rmSync(path.join(root, "components/new-panel.tsx"));
    expect(checkBuild(root)).toEqual({ ok: true });
    fs.rmSync(path.join(root, "lib/standard/parse.ts"));
    expect(checkBuild(root)).toMatchObject({
      ok: false,
      message: expect.stringContaining("lib/standard/parse.ts"),
    });
  });

  it("ignores tests, docs and anything the build does not read, and a touch that changes no content", () => {
    build();
    write("lib/standard/parse.test.ts", "changed test\n");
    write("lib/standard/extra.test.tsx", "new test\n");
    write("docs/runtime.md", "# Changed\n");
    write("test/api/x.integration.test.ts", "changed\n");
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, "app/page.tsx"), later, later);
    expect(checkBuild(root)).toEqual({ ok: true });
  });

  it("names five changed files and counts the rest", () => {
    build();
    for (let index = 0; index < 7; index++) write(`lib/more/file-${index}.ts`, `${index}\n`);
    const result = checkBuild(root);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain("lib/more/file-4.ts and 2 more changed");
  });

  it("a file edited while the build ran counts as changed (the stamp is of the sources it started from)", () => {
    const before = sourceFingerprint(root);
    write("lib/standard/parse.ts", "export const a = 2;\n");
    fs.mkdirSync(path.join(root, ".next"), { recursive: true });
    fs.writeFileSync(path.join(root, ".next", "BUILD_ID"), "test-build");
    writeStamp(root, before);
    expect(checkBuild(root)).toMatchObject({
      ok: false,
      message: expect.stringContaining("lib/standard/parse.ts"),
    });
  });
});

describe("the real project", () => {
  it("fingerprints what the build compiles and no tests", () => {
    const fingerprint = sourceFingerprint(path.resolve(import.meta.dirname, ".."));
    const files = Object.keys(fingerprint);
    expect(files).toContain("runtime/engine/stop-rules.ts");
    expect(files).toContain("app/api/_lib/http.ts");
    expect(files).toContain("package-lock.json");
    expect(files.filter((file) => file.endsWith(".test.ts"))).toEqual([]);
    expect(SOURCE_ENTRIES).toContain("components");
  });

  it("changedFiles lists additions, changes and removals in path order", () => {
    expect(changedFiles({ a: "1", b: "2", c: "3" }, { a: "1", b: "9", d: "4" })).toEqual(["b", "c", "d"]);
  });
});
