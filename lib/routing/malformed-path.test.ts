import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { hasMalformedEncoding, MALFORMED_PATH_REWRITES } from "./malformed-path.mjs";

function decodeThrows(text: string): boolean {
  try {
    decodeURIComponent(text);
    return false;
  } catch {
    return true;
  }
}

const hex = (byte: number) => `%${byte.toString(16).padStart(2, "0")}`;

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("hasMalformedEncoding", () => {
  it("flags the addresses of the bug report and passes ordinary ones", () => {
    expect(hasMalformedEncoding("/api/projects/%E0%A4%A")).toBe(true);
    expect(hasMalformedEncoding("/projects/%ZZ")).toBe(true);
    expect(hasMalformedEncoding("/projects/%")).toBe(true);
    expect(hasMalformedEncoding("/projects/abc")).toBe(false);
    expect(hasMalformedEncoding("/api/threads/t1/fs/a%20b/%E0%A4%A4.md")).toBe(false);
    expect(hasMalformedEncoding("/api/threads/t1/fs/%25ZZ")).toBe(false);
  });

  it("agrees with decodeURIComponent on every one- and two-byte escape sequence", () => {
    for (let first = 0; first < 256; first += 1) {
      expect(hasMalformedEncoding(`/x/${hex(first)}`)).toBe(decodeThrows(hex(first)));
      for (let second = 0; second < 256; second += 1) {
        const text = `/${hex(first)}${hex(second).toUpperCase()}`;
        if (hasMalformedEncoding(text) !== decodeThrows(text)) expect(text).toBe("agreed");
      }
    }
  });

  it("agrees with decodeURIComponent on random three- and four-byte sequences and mixed text", () => {
    const next = random(20);
    const byte = () => {
      // Weighted towards the bytes where UTF-8's boundaries are.
      const pick = next();
      if (pick < 0.4) return 0x80 + Math.floor(next() * 64);
      if (pick < 0.7) return 0xe0 + Math.floor(next() * 32);
      return Math.floor(next() * 256);
    };
    const tokens = ["a", "/", "%", "%%", "Z", "0", "F", "%2", "%e", "%ZZ", "é"];
    for (let round = 0; round < 100_000; round += 1) {
      const length = 1 + Math.floor(next() * 5);
      let text = "/";
      for (let index = 0; index < length; index += 1) {
        text += next() < 0.8 ? hex(byte()) : tokens[Math.floor(next() * tokens.length)]!;
      }
      if (hasMalformedEncoding(text) !== decodeThrows(text)) expect(text).toBe("agreed");
    }
  });

  it("stays linear on long paths", () => {
    const long = `/${"%E0%A4%A4a".repeat(20_000)}%E0`;
    const started = performance.now();
    expect(hasMalformedEncoding(long)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("MALFORMED_PATH_REWRITES", () => {
  // The rewrites' sources compile as Next compiles them (its own path-to-regexp, case-insensitive).
  const { pathToRegexp } = createRequire(import.meta.url)("next/dist/compiled/path-to-regexp") as {
    pathToRegexp: (path: string, keys: unknown[], options: Record<string, unknown>) => RegExp;
  };
  const [api, specApi, pages] = MALFORMED_PATH_REWRITES.map((rule) =>
    pathToRegexp(rule.source, [], { strict: true, sensitive: false, delimiter: "/" }),
  ) as [RegExp, RegExp, RegExp];
  /** Where a path goes: the first rule that matches, as Next applies beforeFiles rewrites. */
  const destination = (path: string) => {
    const index = [api, specApi, pages].findIndex((rule) => rule.test(path));
    return index === -1 ? null : MALFORMED_PATH_REWRITES[index]!.destination;
  };

  it("sends malformed API paths to the 400 route and malformed page paths to no page", () => {
    for (const path of [
      "/api/projects/%E0%A4%A",
      "/api/%ZZ",
      "/api/threads/t/fs/%C0%80",
      "/threads/%ZZ/variables/r1",
      "/threads/t1/variables/%E0/",
    ]) {
      expect([path, destination(path)]).toEqual([path, "/api/malformed-url"]);
    }
    for (const path of ["/projects/%ZZ", "/%ZZ", "/threads/%ED%A0%80", "/threads/%ZZ/x/y", "/apix/%zz"]) {
      expect([path, destination(path)]).toEqual([path, "/malformed-url"]);
    }
    for (const path of [
      "/",
      "/api/projects/abc",
      "/projects/a%20b",
      "/api/x/%25ZZ",
      "/api/x/%e0%a4%a4",
      "/threads/t1/variables/r1",
    ]) {
      expect([path, destination(path)]).toEqual([path, null]);
    }
  });
});
