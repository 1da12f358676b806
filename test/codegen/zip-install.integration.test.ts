// An exported zip is a project a developer can use on a fresh machine: for every studio template, the
// zip is extracted with the system's `unzip`, `npm install` succeeds (offline from npm's cache when it
// holds everything, else preferring the cache and reaching the registry for the rest) and `tsc --noEmit`
// passes. Random bundles that use every definition field are type-checked against the shipped spec
// module too, so its types cannot fall behind lib/standard.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleToProjectFiles, zipProjectFiles } from "@/lib/codegen";
import { parseBundle } from "@/lib/standard";
import { STUDIO_TEMPLATES } from "@/lib/studio/templates";
import { randomBundle } from "@/test/support/random-bundles";

const root = mkdtempSync(path.join(tmpdir(), "tandem-zip-install-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RANDOM_SEEDS = 40;

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, npm_config_update_notifier: "false", npm_config_loglevel: "error" },
      timeout: 120_000,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (status) => resolve({ status, output: output.trim() }));
  });
}

/** npm install from the cache alone when it can; a platform package only the registry has brings the fallback. */
async function npmInstall(cwd: string) {
  const offline = await run("npm", ["install", "--offline", "--no-audit", "--no-fund"], cwd);
  if (offline.status === 0 && (await run("npx", ["--no-install", "tsc", "--version"], cwd)).status === 0) {
    return offline;
  }
  return run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], cwd);
}

/** Writes the zip and extracts it as a user would. */
function extract(name: string, zip: Uint8Array): string {
  const zipPath = path.join(root, `${name}.zip`);
  const directory = path.join(root, name);
  writeFileSync(zipPath, zip);
  mkdirSync(directory);
  execFileSync("unzip", ["-q", zipPath, "-d", directory]);
  return directory;
}

describe("exported zips install and type-check", () => {
  const installed: string[] = [];

  // The templates install side by side: npm mostly waits on the disk.
  describe.concurrent("every template", () => {
    for (const template of STUDIO_TEMPLATES) {
      it(`the "${template.label}" zip: npm install and tsc --noEmit exit 0`, async () => {
        const bundle = template.build();
        const directory = extract(
          template.id,
          zipProjectFiles(bundleToProjectFiles(bundle, { name: template.label })),
        );
        const install = await npmInstall(directory);
        expect(install.status, install.output).toBe(0);
        const typecheck = await run("npx", ["--no-install", "tsc", "--noEmit"], directory);
        expect(typecheck.status, typecheck.output).toBe(0);
        installed.push(directory);
      }, 120_000);
    }
  });

  it("the shipped types accept every field of random bundles and reject a wrong one", async () => {
    const directory = installed[0];
    expect(directory, "a template project installed").toBeDefined();
    for (let seed = 1; seed <= RANDOM_SEEDS; seed++) {
      const bundle = parseBundle(JSON.parse(JSON.stringify(randomBundle(seed)))).bundle!;
      for (const [file, text] of Object.entries(bundleToProjectFiles(bundle))) {
        if (!file.startsWith("agents/")) continue;
        const target = path.join(directory!, `random-${seed}`, file);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
    }
    const config = { extends: "./tsconfig.json", include: ["agents", "standardagents", "random-*/**/*"] };
    writeFileSync(path.join(directory!, "tsconfig.random.json"), JSON.stringify(config));
    const typecheck = await run(
      "npx",
      ["--no-install", "tsc", "--noEmit", "-p", "tsconfig.random.json"],
      directory!,
    );
    expect(typecheck.status, typecheck.output).toBe(0);

    // And the check is real: a field of the wrong type fails it.
    writeFileSync(
      path.join(directory!, "random-1", "agents", "models", "broken.ts"),
      'import { defineModel } from "@standardagents/spec";\n\nexport default defineModel({ name: "broken", provider: "scripted", model: "scripted", scriptLoopFrom: "0" });\n',
    );
    const broken = await run(
      "npx",
      ["--no-install", "tsc", "--noEmit", "-p", "tsconfig.random.json"],
      directory!,
    );
    expect(broken.status).not.toBe(0);
    expect(broken.output).toContain("broken.ts(3,");
    expect(broken.output).toContain("is not assignable to type 'number'");
  }, 120_000);
});
