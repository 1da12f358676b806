// Types of build-stamp.mjs (plain JavaScript: scripts/build.mjs runs it with no build step).
export type Fingerprint = Record<string, string>;
export const SOURCE_ENTRIES: readonly string[];
export const STAMP_FILE: string;
export function sourceFingerprint(root: string): Fingerprint;
export function writeStamp(root: string, fingerprint: Fingerprint): void;
export function changedFiles(before: Fingerprint, now: Fingerprint): string[];
export function checkBuild(root: string): { ok: true } | { ok: false; message: string };
