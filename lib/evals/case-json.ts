// A case edited as JSON (pure): the text parsed and checked against the case's shape, with a message
// naming the field that is wrong, so the editor can say what to fix before anything is saved.
import type { z } from "zod";
import { type EvalCase, EvalCaseSchema } from "./eval-shapes";

export type CaseJsonResult = { ok: true; value: EvalCase } | { ok: false; message: string };

function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.length === 0 ? "the case" : issue.path.map(String).join(".");
}

export function parseCaseJson(text: string): CaseJsonResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not JSON: ${(error as Error).message}` };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, message: "A case is a JSON object: { name, input, assertions }." };
  }
  const parsed = EvalCaseSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === "input") {
      return {
        ok: false,
        message:
          'input: give { "messages": ["…"] } (fixed turns) or { "simulated_user": { "prompt", "model" } }.',
      };
    }
    return { ok: false, message: issue ? `${issuePath(issue)}: ${issue.message}` : "Not a case." };
  }
  return { ok: true, value: parsed.data };
}

/** The case as the JSON editor shows it: without its id (the server keeps the id of the case edited). */
export function caseToJson(evalCase: EvalCase): string {
  const { id: _id, ...rest } = evalCase;
  return JSON.stringify(rest, null, 2);
}

/** A new case: one fixed turn and a first assertion to edit. */
export function newCase(existingNames: readonly string[]): EvalCase {
  let number = existingNames.length + 1;
  while (existingNames.includes(`case ${number}`)) number += 1;
  return {
    name: `case ${number}`,
    input: { messages: ["Hello"] },
    assertions: [{ type: "contains", value: "", target: "final_reply" }],
  };
}
