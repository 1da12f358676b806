import { describe, expect, it } from "vitest";
import {
  type UnappliedField,
  unappliedFieldKey,
  unappliedFieldsOn,
  withoutUnappliedField,
  withUnappliedField,
} from "./unapplied-fields";

const argsDraft: UnappliedField = {
  key: unappliedFieldKey("tool:lookup", [], "Arguments schema"),
  itemId: "tool:lookup",
  label: "Arguments schema",
  text: '{ "type": ',
  message: "Not valid JSON yet: Unexpected end of JSON input",
  appliedText: "",
};

describe("unapplied inspector fields", () => {
  it("keys a field by its item, the groups around it and its label", () => {
    expect(unappliedFieldKey("agent:a", ["Side A"], "Env")).not.toBe(
      unappliedFieldKey("agent:a", ["Side B"], "Env"),
    );
  });

  it("adds, replaces and drops a draft, keeping the same list when nothing changed", () => {
    const one = withUnappliedField([], argsDraft);
    expect(one).toEqual([argsDraft]);
    expect(withUnappliedField(one, { ...argsDraft })).toBe(one);
    const retyped = withUnappliedField(one, { ...argsDraft, text: '{ "type": "object", ' });
    expect(retyped).toHaveLength(1);
    expect(retyped[0]?.text).toBe('{ "type": "object", ');
    expect(withoutUnappliedField(retyped, argsDraft.key)).toEqual([]);
    expect(withoutUnappliedField(one, "nothing")).toBe(one);
  });

  it("forgets the drafts of a node that is no longer on the canvas", () => {
    const fields = [argsDraft, { ...argsDraft, key: "model:m › Options", itemId: "model:m" }];
    expect(unappliedFieldsOn(fields, new Set(["tool:lookup", "model:m"]))).toBe(fields);
    expect(unappliedFieldsOn(fields, new Set(["model:m"])).map((field) => field.itemId)).toEqual(["model:m"]);
  });
});
