import { describe, expect, it } from "vitest";
import { diagnosticLocation, importContentType } from "./import-file";

describe("importContentType", () => {
  it("maps each importable extension to the route's content type", () => {
    expect(importContentType("agents.TS")).toBe("application/typescript");
    expect(importContentType("project.zip")).toBe("application/zip");
    expect(importContentType("bundle.json")).toBe("application/json");
    expect(importContentType("notes.txt")).toBeNull();
  });
});

describe("diagnosticLocation", () => {
  it("prefers file:line:column, then line:column, then the path", () => {
    expect(diagnosticLocation({ severity: "error", message: "m", file: "a.ts", line: 3, column: 7 })).toBe(
      "a.ts:3:7",
    );
    expect(diagnosticLocation({ severity: "error", message: "m", line: 3, column: 7 })).toBe("3:7");
    expect(diagnosticLocation({ severity: "error", message: "m", path: "agents[0].name" })).toBe(
      "agents[0].name",
    );
  });
});
