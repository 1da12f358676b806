// The "Refund desk + eval suite" template keeps the promise of docs/evals.md's worked example: its
// suite, added to a project made from the template, passes on the scripted models (fixed turns, the
// simulated customer and the judge); the documented edit of the support model's script makes exactly
// "broken blender" and "simulated customer" regress, and the comparison of the two runs says so.
import { describe, expect, it } from "vitest";
import { REFUND_REPLY, refundDeskSuites, refundDeskTemplate } from "@/lib/studio/templates";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith } = threadHelpers(fixture);

type Run = {
  id: string;
  status: string;
  summary?: { pass_rate: number; cases: number; passed: number };
  results?: { case_id: string; passed: boolean; assertions: { passed: boolean; reason?: string }[] }[];
};

async function runToEnd(projectId: string, suiteId: string): Promise<Run> {
  const started = await api<{ run: Run }>("POST", `/api/projects/${projectId}/evals/${suiteId}/runs`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = await api<{ run: Run }>("GET", `/api/eval-runs/${started.body.run.id}`);
    expect(read.status).toBe(200);
    if (read.body.run.status !== "running" || Date.now() > deadline) return read.body.run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the refund desk template's eval suite", () => {
  it("passes as shipped, and the documented edit makes two cases regress", async () => {
    const projectId = await projectWith(refundDeskTemplate());
    const [suite] = refundDeskSuites();
    const created = await api<{ suite: { id: string; cases: { id: string; name: string }[] } }>(
      "POST",
      `/api/projects/${projectId}/evals`,
      suite,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const suiteId = created.body.suite.id;
    const caseName = new Map(created.body.suite.cases.map((evalCase) => [evalCase.id, evalCase.name]));

    const before = await runToEnd(projectId, suiteId);
    expect(before.status, JSON.stringify(before)).toBe("done");
    expect(
      before.results
        ?.filter((result) => !result.passed)
        .map((result) => ({
          case: caseName.get(result.case_id),
          reasons: result.assertions
            .filter((assertion) => !assertion.passed)
            .map((assertion) => assertion.reason),
        })),
    ).toEqual([]);
    expect(before.summary?.pass_rate).toBe(1);

    // docs/evals.md "Break it": the support model's refund reply becomes a hand-off.
    const broken = refundDeskTemplate();
    for (const model of broken.models) {
      model.script = model.script?.map((step) =>
        step.text === REFUND_REPLY
          ? { ...step, text: "Thank you. A colleague will look into your order and get back to you." }
          : step,
      );
    }
    const saved = await api("PUT", `/api/projects/${projectId}/definitions`, broken);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const after = await runToEnd(projectId, suiteId);
    expect(after.status, JSON.stringify(after)).toBe("done");
    const failed = (after.results ?? []).filter((result) => !result.passed);
    expect(failed.map((result) => caseName.get(result.case_id)).sort()).toEqual([
      "broken blender",
      "simulated customer",
    ]);
    for (const result of failed) {
      expect(
        result.assertions.some((assertion) => !assertion.passed && (assertion.reason ?? "").length > 0),
      ).toBe(true);
    }

    const compared = await api<{ cases: { name: string; change: string }[] }>(
      "GET",
      `/api/eval-runs/compare?a=${before.id}&b=${after.id}`,
    );
    expect(compared.status).toBe(200);
    expect(Object.fromEntries(compared.body.cases.map((row) => [row.name, row.change]))).toEqual({
      "broken blender": "regressed",
      "asks for the order number": "same",
      "simulated customer": "regressed",
    });
  }, 60_000);
});
