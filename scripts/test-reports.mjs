// What `npm test` (scripts/test.mjs) says about failed tests: one line per test that did not pass,
// read from the JSON reports of vitest and Playwright. Pure: reports in, lines out.

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const MESSAGE_LENGTH = 300;

/** The first line of an error message, without colour codes, at most MESSAGE_LENGTH characters. */
function firstLine(message) {
  return String(message).replace(ANSI_COLOUR, "").split("\n")[0].slice(0, MESSAGE_LENGTH);
}

/**
 * Every failed, skipped or todo test of a vitest JSON report, and every file that failed before its
 * tests ran: `project: file › full name: first line of the error`. Paths relative to `root`.
 */
export function vitestFailures(report, project, root) {
  const relative = (file) => (file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file);
  const lines = [];
  for (const file of report?.testResults ?? []) {
    const assertions = file.assertionResults ?? [];
    for (const assertion of assertions) {
      if (assertion.status === "passed") continue;
      lines.push(
        `${project}: ${relative(file.name)} › ${assertion.fullName}: ${firstLine(assertion.failureMessages?.[0] ?? assertion.status)}`,
      );
    }
    if (file.status === "failed" && assertions.length === 0) {
      lines.push(`${project}: ${relative(file.name)}: ${firstLine(file.message)}`);
    }
  }
  return lines;
}

/** Every test of a Playwright JSON report whose outcome was neither expected nor flaky. */
export function playwrightFailures(report) {
  const lines = [];
  const walk = (suites) => {
    for (const suite of suites ?? []) {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status === "expected" || test.status === "flaky") continue;
          const message = test.results?.at(-1)?.error?.message ?? test.status;
          lines.push(`e2e: ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(message)}`);
        }
      }
      walk(suite.suites);
    }
  };
  walk(report?.suites);
  return lines;
}
