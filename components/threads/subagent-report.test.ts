// The transcript finds subagent reports in message text (issue 41): a tool result that is one, and a
// demo reply that quotes one, split around it.
import { describe, expect, it } from "vitest";
import { splitSubagentReports } from "./subagent-report";

const ID = "0f8c3f4e-1111-4222-8333-944455556666";

describe("splitSubagentReports", () => {
  it("leaves text without a report as it is", () => {
    expect(splitSubagentReports("Hello there")).toEqual([{ kind: "text", text: "Hello there" }]);
  });

  it("reads a whole report: its child and its result", () => {
    expect(
      splitSubagentReports(
        `Subagent (reference: ${ID}) has returned the following result:\n\nPublished. A poem`,
      ),
    ).toEqual([{ kind: "report", reference: ID, outcome: "result", body: "Published. A poem" }]);
  });

  it("reads a failure", () => {
    expect(
      splitSubagentReports(
        `Subagent (reference: ${ID}) has reported a failure:\n\nThe subagent stopped before finishing its task: Stopped by user`,
      ),
    ).toEqual([
      {
        kind: "report",
        reference: ID,
        outcome: "failure",
        body: "The subagent stopped before finishing its task: Stopped by user",
      },
    ]);
  });

  it("splits a reply that quotes a report around it", () => {
    expect(
      splitSubagentReports(
        `The critic filed a review: Subagent (reference: ${ID}) has returned the following result:\n\nChecked.`,
      ),
    ).toEqual([
      { kind: "text", text: "The critic filed a review:" },
      { kind: "report", reference: ID, outcome: "result", body: "Checked." },
    ]);
  });
});
