// The audit page's filters as the audit route's query: the page filters on the server, so what it
// asks is what it shows.
import { describe, expect, it } from "vitest";
import {
  AUDIT_ACTIONS,
  AUDIT_FAMILIES,
  actorLabel,
  auditQuery,
  describeAuditValue,
  isFiltered,
  NO_AUDIT_FILTER,
  rangeProblem,
} from "./audit-filter";

const NOW = Date.parse("2026-12-02T07:00:00Z");
const ask = (filter: Partial<typeof NO_AUDIT_FILTER>, before?: string) =>
  Object.fromEntries(auditQuery({ ...NO_AUDIT_FILTER, ...filter }, { now: NOW, limit: 50, before }));

describe("auditQuery", () => {
  it("asks only for a page without a filter", () => {
    expect(ask({})).toEqual({ limit: "50" });
    expect(isFiltered(NO_AUDIT_FILTER)).toBe(false);
  });

  it("sends action, actor and the window's start", () => {
    expect(ask({ action: "thread", actor: "u1", window: "hour" })).toEqual({
      limit: "50",
      action: "thread",
      actor: "u1",
      from: String(NOW - 3_600_000),
    });
    expect(isFiltered({ ...NO_AUDIT_FILTER, actor: "u1" })).toBe(true);
  });

  it("sends a custom range in local time, the whole last minute kept, and the cursor", () => {
    const from = new Date("2026-12-01T09:30").getTime();
    const to = new Date("2026-12-01T10:00").getTime();
    expect(ask({ window: "custom", from: "2026-12-01T09:30", to: "2026-12-01T10:00" }, "123_x")).toEqual({
      limit: "50",
      from: String(from),
      to: String(to + 59_999),
      before: "123_x",
    });
    expect(isFiltered({ ...NO_AUDIT_FILTER, window: "custom" })).toBe(false);
  });

  it("refuses a range that ends before it starts", () => {
    expect(
      rangeProblem({
        ...NO_AUDIT_FILTER,
        window: "custom",
        from: "2026-12-02T10:00",
        to: "2026-12-01T10:00",
      }),
    ).toBe("“To” is before “From”.");
    expect(rangeProblem({ ...NO_AUDIT_FILTER, window: "custom", from: "2026-12-01T10:00" })).toBeNull();
  });
});

describe("the action choices", () => {
  it("are the policy table's audit actions of a project and their families", () => {
    expect(AUDIT_ACTIONS).toContain("version.save");
    expect(AUDIT_ACTIONS).toContain("approval.decide");
    expect(AUDIT_ACTIONS).toContain("credential.delete");
    expect(AUDIT_ACTIONS).not.toContain("user.create");
    expect(AUDIT_FAMILIES).toEqual(expect.arrayContaining(["thread", "member", "key", "credential"]));
    expect([...AUDIT_ACTIONS].sort()).toEqual(AUDIT_ACTIONS);
  });
});

describe("labels", () => {
  it("marks keys as keys", () => {
    expect(actorLabel({ at: "", action: "x", actor: { type: "key", id: "k1", name: "CI" } })).toBe("key CI");
    expect(actorLabel({ at: "", action: "x", actor: { type: "user", id: null, name: "API token" } })).toBe(
      "API token",
    );
  });

  it("writes objects as key: value pairs and nested values as JSON", () => {
    expect(describeAuditValue({ role: "editor", args: { q: 1 } })).toBe('role: editor · args: {"q":1}');
    expect(describeAuditValue(null)).toBe("");
    expect(describeAuditValue(["a", 2])).toBe("a, 2");
  });
});
