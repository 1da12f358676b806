import { describe, expect, it } from "vitest";
import { plural, pluralOf, withArticle } from "./plural";

describe("plural", () => {
  it("uses the singular for exactly one and the plural otherwise", () => {
    expect(plural(1, "agent")).toBe("1 agent");
    expect(plural(0, "agent")).toBe("0 agents");
    expect(plural(2, "agent")).toBe("2 agents");
    expect(plural(1_234, "token")).toBe("1,234 tokens");
  });

  it("knows the regular spelling rules and the irregular nouns of the UI", () => {
    expect(pluralOf("entry")).toBe("entries");
    expect(pluralOf("key")).toBe("keys");
    expect(pluralOf("match")).toBe("matches");
    expect(pluralOf("box")).toBe("boxes");
    expect(pluralOf("status")).toBe("statuses");
    expect(pluralOf("child")).toBe("children");
    expect(plural(3, "child")).toBe("3 children");
  });

  it("takes an explicit plural form", () => {
    expect(plural(2, "was", "were")).toBe("2 were");
    expect(plural(1, "file was", "files were")).toBe("1 file was");
  });
});

describe("withArticle", () => {
  it("writes 'an' before a vowel sound and 'a' before a consonant sound", () => {
    expect(withArticle("agent")).toBe("an agent");
    expect(withArticle("error")).toBe("an error");
    expect(withArticle("object")).toBe("an object");
    expect(withArticle("array")).toBe("an array");
    expect(withArticle("identifier")).toBe("an identifier");
    expect(withArticle("prompt")).toBe("a prompt");
    expect(withArticle("tool")).toBe("a tool");
    expect(withArticle("model")).toBe("a model");
  });

  it("follows the sound, not the letter, for the common exceptions", () => {
    expect(withArticle("user")).toBe("a user");
    expect(withArticle("unique name")).toBe("a unique name");
    expect(withArticle("URL")).toBe("a URL");
    expect(withArticle("API key")).toBe("an API key");
    expect(withArticle("SDK")).toBe("an SDK");
    expect(withArticle("hour")).toBe("an hour");
    expect(withArticle("unknown tool")).toBe("an unknown tool");
    expect(withArticle("undefined")).toBe("an undefined");
  });
});
