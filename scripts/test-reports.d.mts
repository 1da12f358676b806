// Types of test-reports.mjs (plain JavaScript: scripts/test.mjs runs it with no build step).
export function vitestFailures(report: unknown, project: string, root: string): string[];
export function playwrightFailures(report: unknown): string[];
