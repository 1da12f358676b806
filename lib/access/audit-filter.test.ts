import { describe, expect, it } from "vitest";
import type { AuditEntry } from "@/lib/api/access-schemas";
import { auditFacets, describeAuditValue, filterAudit, NO_AUDIT_FILTER } from "./audit-filter";

const NOW = Date.parse("2026-12-02T07:00:00Z");
const entries: AuditEntry[] = [
  {
    at: "2026-12-02T06:50:00Z",
    actor: { type: "user", id: "u1", name: "Ada" },
    action: "version.save",
    target: "v3",
  },
  {
    at: "2026-12-01T12:00:00Z",
    actor: { type: "key", id: "k1", name: "CI" },
    action: "thread.start",
    target: "t1",
  },
  // µs, as thread timestamps are: 2026-11-20.
  {
    at: Date.parse("2026-11-20T00:00:00Z") * 1000,
    actor: { type: "user", id: "u1", name: "Ada" },
    action: "thread.start",
  },
];

describe("filterAudit", () => {
  it("keeps everything without a filter", () => {
    expect(filterAudit(entries, NO_AUDIT_FILTER, NOW)).toHaveLength(3);
  });
  it("filters by action, actor and time window, together", () => {
    expect(
      filterAudit(entries, { ...NO_AUDIT_FILTER, action: "thread.start" }, NOW).map((e) => e.target),
    ).toEqual(["t1", undefined]);
    expect(filterAudit(entries, { ...NO_AUDIT_FILTER, actor: "key:k1" }, NOW).map((e) => e.target)).toEqual([
      "t1",
    ]);
    expect(filterAudit(entries, { ...NO_AUDIT_FILTER, window: "hour" }, NOW).map((e) => e.target)).toEqual([
      "v3",
    ]);
    expect(filterAudit(entries, { ...NO_AUDIT_FILTER, window: "day" }, NOW)).toHaveLength(2);
    expect(filterAudit(entries, { ...NO_AUDIT_FILTER, window: "month" }, NOW)).toHaveLength(3);
    expect(
      filterAudit(entries, { action: "thread.start", actor: "user:u1", window: "week" }, NOW),
    ).toHaveLength(0);
  });
});

describe("auditFacets", () => {
  it("lists each action and actor once, keys marked as keys", () => {
    expect(auditFacets(entries)).toEqual({
      actions: ["thread.start", "version.save"],
      actors: [
        { key: "user:u1", label: "Ada" },
        { key: "key:k1", label: "key CI" },
      ],
    });
  });
});

describe("describeAuditValue", () => {
  it("writes objects as key: value pairs and nested values as JSON", () => {
    expect(describeAuditValue({ role: "editor", args: { q: 1 } })).toBe('role: editor · args: {"q":1}');
    expect(describeAuditValue(null)).toBe("");
    expect(describeAuditValue(["a", 2])).toBe("a, 2");
  });
});
