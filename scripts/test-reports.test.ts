// The failed-test lines `npm test` prints at its end, read from real-shaped vitest and Playwright
// JSON reports: failed, skipped and todo tests are named with the first line of their error (no
// colour codes); passed and flaky ones are not; a file that failed before its tests is named too.
import { describe, expect, it } from "vitest";
import { playwrightFailures, vitestFailures } from "./test-reports.mjs";

const RED = `${String.fromCharCode(27)}[31m`;
const RESET = `${String.fromCharCode(27)}[39m`;

describe("vitestFailures", () => {
  it("names every test that did not pass and every file that failed to load", () => {
    const report = {
      numPassedTests: 1,
      numFailedTests: 1,
      testResults: [
        {
          name: "/repo/runtime/a.integration.test.ts",
          status: "failed",
          assertionResults: [
            { fullName: "suite passes", status: "passed", failureMessages: [] },
            {
              fullName: "suite breaks",
              status: "failed",
              failureMessages: [`${RED}AssertionError${RESET}: expected 1 to be 2\n    at stack line`],
            },
            { fullName: "suite later", status: "skipped", failureMessages: [] },
          ],
        },
        {
          name: "/repo/lib/b.test.ts",
          status: "failed",
          message: "SyntaxError: Unexpected token\nmore",
          assertionResults: [],
        },
        { name: "/elsewhere/c.test.ts", status: "passed", assertionResults: [] },
      ],
    };
    expect(vitestFailures(report, "integration", "/repo")).toEqual([
      "integration: runtime/a.integration.test.ts › suite breaks: AssertionError: expected 1 to be 2",
      "integration: runtime/a.integration.test.ts › suite later: skipped",
      "integration: lib/b.test.ts: SyntaxError: Unexpected token",
    ]);
  });

  it("says nothing for a passing report or a missing one, and cuts long messages", () => {
    expect(vitestFailures({ testResults: [] }, "unit", "/repo")).toEqual([]);
    expect(vitestFailures(null, "unit", "/repo")).toEqual([]);
    const [line] = vitestFailures(
      {
        testResults: [
          {
            name: "/repo/x.test.ts",
            assertionResults: [{ fullName: "long", status: "failed", failureMessages: ["e".repeat(1000)] }],
          },
        ],
      },
      "unit",
      "/repo",
    );
    expect(line).toBe(`unit: x.test.ts › long: ${"e".repeat(300)}`);
  });
});

describe("playwrightFailures", () => {
  it("names unexpected and skipped tests in nested suites, not expected or flaky ones", () => {
    const report = {
      suites: [
        {
          specs: [
            {
              file: "live.spec.ts",
              line: 44,
              title: "runs live",
              tests: [{ status: "expected", results: [] }],
            },
          ],
          suites: [
            {
              specs: [
                {
                  file: "studio.spec.ts",
                  line: 12,
                  title: "draws",
                  tests: [
                    {
                      status: "unexpected",
                      results: [
                        { error: { message: "first try" } },
                        { error: { message: `${RED}Timed out${RESET} 5000ms\nwaiting for locator` } },
                      ],
                    },
                  ],
                },
                {
                  file: "studio.spec.ts",
                  line: 30,
                  title: "retries",
                  tests: [{ status: "flaky", results: [] }],
                },
                {
                  file: "studio.spec.ts",
                  line: 50,
                  title: "skips",
                  tests: [{ status: "skipped", results: [] }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(playwrightFailures(report)).toEqual([
      "e2e: studio.spec.ts:12 › draws: Timed out 5000ms",
      "e2e: studio.spec.ts:50 › skips: skipped",
    ]);
    expect(playwrightFailures(null)).toEqual([]);
  });
});
