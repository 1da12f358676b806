// The role helper the studio asks before showing a control: API.md's role ladder, read from the
// policy table's rows for the routes each control calls (never a second list of rules).
import { describe, expect, it } from "vitest";
import { allows, FULL_ACCESS, neededRole, PROJECT_ACTIONS, PROJECT_ROLES, type ProjectAction } from "./roles";

// What API.md says each role adds, written out independently of the table.
const RUNNER_ADDS: ProjectAction[] = [
  "run",
  "message",
  "stop",
  "terminate",
  "approve",
  "fork",
  "replay",
  "replayBatch",
  "cancelEffect",
  "writeFiles",
  "runEval",
  "cancelEval",
];
const EDITOR_ADDS: ProjectAction[] = [
  "save",
  "import",
  "restore",
  "rename",
  "editSuites",
  "addToSuite",
  "listCredentials",
];
const OWNER_ADDS: ProjectAction[] = [
  "deleteProject",
  "manage",
  "listKeys",
  "manageKeys",
  "manageCredentials",
  "readAudit",
];
const MATRIX: Record<(typeof PROJECT_ROLES)[number], ProjectAction[]> = {
  viewer: ["read"],
  runner: ["read", ...RUNNER_ADDS],
  editor: ["read", ...RUNNER_ADDS, ...EDITOR_ADDS],
  owner: ["read", ...RUNNER_ADDS, ...EDITOR_ADDS, ...OWNER_ADDS],
};

describe("allows", () => {
  it("covers every action the UI gates", () => {
    expect([...PROJECT_ACTIONS].sort()).toEqual([...MATRIX.owner].sort());
  });

  it.each(PROJECT_ROLES)("lets a %s do exactly what API.md's role ladder says", (role) => {
    for (const action of PROJECT_ACTIONS) {
      expect(allows({ role }, action).ok, `${role} ${action}`).toBe(MATRIX[role].includes(action));
    }
  });

  it("lets everyone do everything without accounts (the local default) and admins", () => {
    for (const action of PROJECT_ACTIONS) expect(allows(FULL_ACCESS, action)).toEqual({ ok: true });
  });

  it("says which role may and whom to ask", () => {
    expect(allows({ role: "viewer" }, "message")).toEqual({
      ok: false,
      reason: "Viewers can't send messages — ask a project owner for the runner role.",
    });
    expect(allows({ role: "runner" }, "save")).toEqual({
      ok: false,
      reason: "Runners can't save changes — ask a project owner for the editor role.",
    });
    const audit = allows({ role: "editor" }, "readAudit");
    expect(audit.ok ? "" : audit.reason).toBe(
      "Editors can't read the audit log — ask a project owner for the owner role.",
    );
  });
});

describe("neededRole", () => {
  it("is the role of the policy row of the route the control calls", () => {
    expect(neededRole("message")).toBe("runner");
    expect(neededRole("restore")).toBe("editor");
    expect(neededRole("manageKeys")).toBe("owner");
  });

  it("finds a project row for every action", () => {
    for (const action of PROJECT_ACTIONS) expect(() => neededRole(action), action).not.toThrow();
  });
});
