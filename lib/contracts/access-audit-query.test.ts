// The audit route's query schema: what each filter takes, and a message naming the parameter for
// anything else (the route answers it as a 400).
import { describe, expect, it } from "vitest";
import { AuditQuerySchema, auditCursor } from "./access";

const issue = (query: Record<string, string>) => {
  const parsed = AuditQuerySchema.safeParse(query);
  return parsed.success
    ? null
    : { path: parsed.error.issues[0]?.path.join("."), message: parsed.error.issues[0]?.message };
};

describe("AuditQuerySchema", () => {
  it("reads limit, action, actor, ISO or epoch-ms times and the cursor", () => {
    const id = "0b9c2f7e-3c1a-4d2b-9e8f-1a2b3c4d5e6f";
    expect(
      AuditQuerySchema.parse({
        limit: "25",
        action: "thread",
        actor: "k_1-a",
        from: "2026-12-01T10:00:00Z",
        to: "1796119200000",
        before: `1796119200000_${id}`,
      }),
    ).toEqual({
      limit: 25,
      action: "thread",
      actor: "k_1-a",
      from: Date.parse("2026-12-01T10:00:00Z"),
      to: 1796119200000,
      before: { at: 1796119200000, id },
    });
    expect(AuditQuerySchema.parse({ before: "42" })).toEqual({ before: { at: 42, id: null } });
    expect(AuditQuerySchema.parse({})).toEqual({});
  });

  it.each([
    [{ limit: "0" }, "limit"],
    [{ limit: "1001" }, "limit"],
    [{ limit: "2.5" }, "limit"],
    [{ action: "Thread" }, "action"],
    [{ action: "thread." }, "action"],
    [{ actor: "a b" }, "actor"],
    [{ from: "-5" }, "from"],
    [{ from: "yesterday" }, "from"],
    [{ to: "2026-13-45" }, "to"],
    [{ from: "2026-12-02", to: "2026-12-01" }, "to"],
    [{ before: "page-2" }, "before"],
  ])("refuses %j, naming %s", (query, name) => {
    const found = issue(query);
    expect(found?.path).toBe(name);
    expect(found?.message).toContain(name);
  });

  it("writes the cursor of an entry as its epoch ms and id", () => {
    expect(auditCursor({ at: "2026-12-01T10:00:00.123Z", id: "x" })).toBe(
      `${Date.parse("2026-12-01T10:00:00.123Z")}_x`,
    );
  });
});
