import { describe, expect, it } from "vitest";
import { allows, FULL_ACCESS, PROJECT_ROLES, type ProjectAction } from "./roles";

// API.md's role ladder, as the policy table enforces it on the routes each action calls.
const MATRIX: Record<(typeof PROJECT_ROLES)[number], ProjectAction[]> = {
  viewer: ["read"],
  runner: ["read", "run"],
  editor: ["read", "run", "save", "listCredentials"],
  owner: ["read", "run", "save", "listCredentials", "manage", "listKeys", "readAudit"],
};
const ACTIONS: ProjectAction[] = [
  "read",
  "run",
  "save",
  "manage",
  "listKeys",
  "listCredentials",
  "readAudit",
];

describe("allows", () => {
  it.each(PROJECT_ROLES)("lets a %s do exactly what the role table says", (role) => {
    for (const action of ACTIONS) {
      expect(allows({ role }, action).ok, `${role} ${action}`).toBe(MATRIX[role].includes(action));
    }
  });

  it("lets everyone do everything without accounts (the local default) and admins", () => {
    for (const action of ACTIONS) expect(allows(FULL_ACCESS, action)).toEqual({ ok: true });
  });

  it("says which role is needed and what to do", () => {
    const refused = allows({ role: "runner" }, "save");
    expect(refused).toEqual({
      ok: false,
      reason:
        "Your role in this project is runner: only an editor or above may save changes. Ask a project owner to change your role.",
    });
    const manage = allows({ role: "editor" }, "manage");
    expect(manage.ok ? "" : manage.reason).toContain("only an owner may manage members");
  });
});
