import { describe, expect, it } from "vitest";
import { assetExampleBundle, type Bundle, minimalChatBundle, parseBundle } from "@/lib/standard";
import { randomBundle } from "../../test/support/random-bundles";
import { bundleToProjectFiles, projectFilesToBundle } from "./project-files";
import { typeScriptToBundle } from "./read-typescript";
import { SOURCE_DIAGNOSTIC_CODES } from "./source-diagnostics";
import { bundleToTypeScript } from "./write-typescript";
import { unzipProjectFiles, zipProjectFiles } from "./zip";

/** What the bundle is after the edge every import goes through. */
function normalised(bundle: Bundle): Bundle {
  const parsed = parseBundle(JSON.parse(JSON.stringify(bundle)));
  expect(parsed.bundle, "the generator made a bundle that does not parse").toBeDefined();
  return parsed.bundle!;
}

/** Problems reading the code (as opposed to bundle rules) would mean the exporter wrote something the reader refuses. */
function readProblems(result: { diagnostics: Array<{ code: string }> }) {
  return result.diagnostics.filter((diagnostic) =>
    (SOURCE_DIAGNOSTIC_CODES as readonly string[]).includes(diagnostic.code),
  );
}

const examples: Array<[string, Bundle]> = [
  ["the spec's asset_subagent example", assetExampleBundle],
  ["the minimal chat bundle", minimalChatBundle],
  ["an empty bundle", { agents: [], prompts: [], models: [], tools: [] }],
];
const SEEDS = Array.from({ length: 150 }, (_, index) => index + 1);

describe("round trip through one TypeScript module", () => {
  it.each(examples)("%s comes back deep-equal with no diagnostics", (_, bundle) => {
    const result = typeScriptToBundle(bundleToTypeScript(bundle));
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.bundle).toEqual(normalised(bundle));
  });

  it("150 generated bundles come back deep-equal", { timeout: 30_000 }, () => {
    for (const seed of SEEDS) {
      const bundle = normalised(randomBundle(seed));
      const source = bundleToTypeScript(bundle);
      const result = typeScriptToBundle(source);
      expect(readProblems(result), `seed ${seed}`).toEqual([]);
      expect(result.bundle, `seed ${seed}\n${source}`).toEqual(bundle);
    }
  });

  it("writes the same text for the same bundle every time", () => {
    for (const seed of SEEDS.slice(0, 20)) {
      expect(bundleToTypeScript(randomBundle(seed))).toBe(bundleToTypeScript(randomBundle(seed)));
    }
  });
});

describe("round trip through project files and a zip", () => {
  it.each(examples)("%s comes back deep-equal with no diagnostics", async (_, bundle) => {
    const files = await unzipProjectFiles(zipProjectFiles(bundleToProjectFiles(bundle)));
    const result = projectFilesToBundle(files);
    expect(result.diagnostics).toEqual([]);
    expect(result.bundle).toEqual(normalised(bundle));
  });

  it("150 generated bundles come back deep-equal, in the bundle's order", { timeout: 30_000 }, async () => {
    for (const seed of SEEDS) {
      const bundle = normalised(randomBundle(seed));
      const files = await unzipProjectFiles(zipProjectFiles(bundleToProjectFiles(bundle)));
      const result = projectFilesToBundle(files);
      expect(readProblems(result), `seed ${seed}`).toEqual([]);
      expect(result.bundle, `seed ${seed}`).toEqual(bundle);
    }
  });
});
