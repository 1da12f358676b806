// A subagent's report as the spec words it for the parent's model ("Subagent (reference: <id>) has
// returned the following result:\n\n<result>", or "… has reported a failure:\n\n<details>",
// runtime/subagents/branches.ts `reportText`), found in a message's text so the transcript shows it
// as a handoff from that child rather than as raw text. A reply that quotes a report (a demo script's
// `{{tool_result}}`) is split around it.

export type ReportSegment =
  | { kind: "text"; text: string }
  | { kind: "report"; reference: string; outcome: "result" | "failure"; body: string };

const REPORT =
  /Subagent \(reference: ([^)\s]+)\) has (returned the following result|reported a failure):\n\n/g;

/**
 * The text cut into plain parts and reports (in order). A report's body runs to the next report or
 * the end of the text; a text without a report is one plain part.
 */
export function splitSubagentReports(text: string): ReportSegment[] {
  const matches = [...text.matchAll(REPORT)];
  if (matches.length === 0) return [{ kind: "text", text }];
  const segments: ReportSegment[] = [];
  const before = text.slice(0, matches[0]!.index).trimEnd();
  if (before !== "") segments.push({ kind: "text", text: before });
  matches.forEach((match, index) => {
    const start = match.index + match[0].length;
    const end = matches[index + 1]?.index ?? text.length;
    segments.push({
      kind: "report",
      reference: match[1]!,
      outcome: match[2] === "reported a failure" ? "failure" : "result",
      body: text.slice(start, end).trim(),
    });
  });
  return segments;
}
