import { describe, expect, it } from "vitest";
import { remapIds, remapJson, remapNullable } from "./fork-ids";

const child = "0b9e6a38-3f5e-4d1c-9a57-0c1f2d3e4f50";
const copy = "7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e";
const other = "11111111-2222-4333-8444-555555555555";
const ids = new Map([[child, copy]]);

describe("fork id remapping", () => {
  it("replaces every renewed id in text, in any case, and keeps the rest", () => {
    expect(remapIds(`Subagent (reference: ${child}) has returned`, ids)).toBe(
      `Subagent (reference: ${copy}) has returned`,
    );
    expect(remapIds(`${child.toUpperCase()} and ${child}; ${other}`, ids)).toBe(
      `${copy} and ${copy}; ${other}`,
    );
    expect(remapIds("no ids here", ids)).toBe("no ids here");
  });

  it("remaps strings inside JSON values and keeps null", () => {
    expect(remapJson({ subagent: { reference: child, name: "alpha" }, list: [child, 3] }, ids)).toEqual({
      subagent: { reference: copy, name: "alpha" },
      list: [copy, 3],
    });
    expect(remapJson(null, ids)).toBeNull();
    expect(remapNullable(null, ids)).toBeNull();
    expect(remapNullable(child, ids)).toBe(copy);
  });
});
