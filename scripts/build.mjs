#!/usr/bin/env node
// `npm run build`: `next build`, then the fingerprint of the sources it started from kept beside the
// build (.next/tandem-sources.json), so the integration suite can tell a build older than the code.
// The fingerprint is taken before the build: a file edited while it runs counts as changed.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { sourceFingerprint, writeStamp } from "./build-stamp.mjs";

const root = path.resolve(import.meta.dirname, "..");
const fingerprint = sourceFingerprint(root);
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const outcome = spawnSync(process.execPath, [nextBin, "build", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
if (outcome.status !== 0) process.exit(outcome.status ?? 1);
writeStamp(root, fingerprint);
