// Whether the production build in .next was made from the sources on disk. `npm run build` fingerprints
// the sources (a SHA-1 per file of everything the build compiles) before `next build` starts and keeps
// that fingerprint next to the build; the integration suite compares it with the sources now and
// refuses to test an older build. Plain JavaScript: scripts/build.mjs runs it with no build step.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** What `next build` compiles or reads: a change here means the build is out of date. */
export const SOURCE_ENTRIES = [
  "app",
  "components",
  "lib",
  "runtime",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

/** The stamp, inside the build folder so a new build (which empties .next) never keeps an old one. */
export const STAMP_FILE = path.join(".next", "tandem-sources.json");

/** Tests live beside the code but are never part of the build. */
function isTestFile(name) {
  return /\.test\.tsx?$/.test(name);
}

function listFiles(root, relative, found) {
  const full = path.join(root, relative);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return;
  }
  if (stat.isFile()) {
    if (!isTestFile(relative)) found.push(relative);
    return;
  }
  if (!stat.isDirectory()) return;
  for (const entry of fs.readdirSync(full).sort()) listFiles(root, path.join(relative, entry), found);
}

/** `{ "lib/x.ts": "<sha1>", … }` for every source file under `root`, in path order. */
export function sourceFingerprint(root) {
  const files = [];
  for (const entry of SOURCE_ENTRIES) listFiles(root, entry, files);
  const fingerprint = {};
  for (const file of files) {
    fingerprint[file.split(path.sep).join("/")] = createHash("sha1")
      .update(fs.readFileSync(path.join(root, file)))
      .digest("hex");
  }
  return fingerprint;
}

export function writeStamp(root, fingerprint) {
  fs.writeFileSync(path.join(root, STAMP_FILE), `${JSON.stringify({ files: fingerprint })}\n`);
}

/** Files added, changed or removed since `before`, in path order. */
export function changedFiles(before, now) {
  const names = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...names].filter((name) => before[name] !== now[name]).sort();
}

/**
 * `{ ok: true }` when .next holds a build of exactly the sources on disk; otherwise `{ ok: false,
 * message }` saying what is wrong and what to run.
 */
export function checkBuild(root) {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    return {
      ok: false,
      message: "No production build found: run `npm run build` first (`npm test` builds for you).",
    };
  }
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(root, STAMP_FILE), "utf8"));
  } catch {
    return {
      ok: false,
      message:
        "The build in .next has no source stamp, so it may be older than the code (it was not made by `npm run build`). Run `npm run build`.",
    };
  }
  const changed = changedFiles(stamp?.files ?? {}, sourceFingerprint(root));
  if (changed.length === 0) return { ok: true };
  const shown = changed.slice(0, 5).join(", ");
  const more = changed.length > 5 ? ` and ${changed.length - 5} more` : "";
  return {
    ok: false,
    message: `The build in .next is older than the code: ${shown}${more} changed since it was made, so the tests would run the old code. Run \`npm run build\` first (\`npm test\` builds for you).`,
  };
}
