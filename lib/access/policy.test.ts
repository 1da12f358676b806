// The policy table covers every route file and method of app/, and a request's path finds its own
// route's entry (static segments before dynamic ones, as Next resolves them).
import { describe, expect, it } from "vitest";
import { routeFiles } from "../../test/support/routes";
import { findPolicy, POLICY, policyFor, roleAtLeast, scopesAllow } from "./policy";

describe("the policy table", () => {
  const routes = routeFiles();

  it("has exactly one entry for every method of every route file", () => {
    expect(routes.length).toBeGreaterThanOrEqual(40);
    const missing: string[] = [];
    for (const route of routes) {
      for (const method of route.methods) {
        const entries = POLICY.filter((entry) => entry.method === method && entry.pattern === route.pattern);
        if (entries.length !== 1) missing.push(`${method} ${route.pattern} (${entries.length} entries)`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names no route that does not exist (a renamed route cannot leave a stale row)", () => {
    const known = new Set(
      routes.flatMap((route) => route.methods.map((method) => `${method} ${route.pattern}`)),
    );
    expect(POLICY.filter((entry) => !known.has(`${entry.method} ${entry.pattern}`))).toEqual([]);
  });

  it("matches each route's own URL to its own entry, with its params", () => {
    for (const route of routes) {
      for (const method of route.methods) {
        const match = findPolicy(method, route.urlPath);
        expect(match?.entry, `${method} ${route.urlPath}`).toBe(policyFor(method, route.pattern));
      }
    }
    expect(findPolicy("GET", "/api/threads/diff")?.entry.pattern).toBe("/api/threads/diff");
    expect(findPolicy("GET", "/api/threads/abc")?.params).toEqual({ id: "abc" });
    expect(findPolicy("PUT", "/api/projects/p1/credentials/OPENAI%20KEY")?.params).toEqual({
      id: "p1",
      name: "OPENAI KEY",
    });
    expect(findPolicy("POST", "/api/threads/t/endpoints")?.entry.pattern).toBe(
      "/api/threads/[id]/endpoints/[[...path]]",
    );
    expect(findPolicy("HEAD", "/api/projects")?.entry.method).toBe("GET");
    expect(findPolicy("GET", "/api/nothing-here")).toBeNull();
  });

  it("only the ways in and out and liveness are public", () => {
    expect(
      POLICY.filter((entry) => entry.access.kind === "public")
        .map((entry) => entry.pattern)
        .sort(),
    ).toEqual([
      "/api/auth/login",
      "/api/auth/logout",
      "/api/auth/oidc/callback",
      "/api/auth/oidc/start",
      "/api/auth/session",
      "/api/auth/setup",
      "/api/health",
    ]);
  });

  it("ranks roles and maps key scopes onto them", () => {
    expect(roleAtLeast("owner", "editor")).toBe(true);
    expect(roleAtLeast("runner", "editor")).toBe(false);
    expect(roleAtLeast(null, "viewer")).toBe(false);
    const run = { kind: "project", project: { from: "param", param: "id" }, role: "runner" } as const;
    const mcp = { ...run, mcp: true } as const;
    expect(scopesAllow(["read"], run)).toBe(false);
    expect(scopesAllow(["run"], run)).toBe(true);
    expect(scopesAllow(["design"], run)).toBe(true);
    expect(scopesAllow(["mcp"], run)).toBe(false);
    expect(scopesAllow(["design"], mcp)).toBe(false);
    expect(scopesAllow(["mcp"], mcp)).toBe(true);
  });
});
