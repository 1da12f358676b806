// The exported code must already be in the project's format: `biome format` (the repo's settings)
// leaves every generated file unchanged. It runs the real formatter, so any syntax error fails too.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assetExampleBundle, minimalChatBundle, parseBundle } from "@/lib/standard";
import { randomBundle } from "../../test/support/random-bundles";
import { bundleToProjectFiles } from "./project-files";
import { bundleToTypeScript } from "./write-typescript";

const SEEDS = Number(process.env.CODEGEN_FORMAT_SEEDS ?? 60);
const repository = path.resolve(import.meta.dirname, "../..");
const directory = mkdtempSync(path.join(tmpdir(), "tandem-codegen-format-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function writeFormatterConfig() {
  const config = JSON.parse(readFileSync(path.join(repository, "biome.json"), "utf8"));
  const settings = { formatter: config.formatter, javascript: config.javascript, json: config.json };
  writeFileSync(path.join(directory, "biome.json"), `${JSON.stringify(settings, null, 2)}\n`);
}

function biomeFormat(): { status: number; output: string } {
  try {
    const output = execFileSync(
      path.join(repository, "node_modules/.bin/biome"),
      ["format", "--max-diagnostics=5", "."],
      {
        cwd: directory,
        encoding: "utf8",
        stdio: "pipe",
      },
    );
    return { status: 0, output };
  } catch (error) {
    const failure = error as { status: number; stdout: string; stderr: string };
    return { status: failure.status, output: `${failure.stdout}\n${failure.stderr}` };
  }
}

describe("generated code is formatted", () => {
  it("biome format changes none of the modules and project files of the examples and generated bundles", () => {
    writeFormatterConfig();
    const bundles = [assetExampleBundle, minimalChatBundle];
    for (let seed = 1; seed <= SEEDS; seed++)
      bundles.push(parseBundle(JSON.parse(JSON.stringify(randomBundle(seed)))).bundle!);
    bundles.forEach((bundle, index) => {
      writeFileSync(path.join(directory, `module-${index}.ts`), bundleToTypeScript(bundle));
      for (const [file, text] of Object.entries(bundleToProjectFiles(bundle, { name: "Format check" }))) {
        const target = path.join(directory, `project-${index}`, file);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
    });
    const result = biomeFormat();
    expect(result.output).not.toMatch(/would have printed|error/i);
    expect(result.status).toBe(0);
  }, 30_000);
});
