import { describe, expect, it } from "vitest";
import { redactError, redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it("replaces every occurrence of each secret", () => {
    expect(redactSecrets("bad key sk-123456 (sk-123456)", ["sk-123456"])).toBe(
      "bad key [redacted] ([redacted])",
    );
  });

  it("ignores missing and very short secrets", () => {
    expect(redactSecrets("a1b1", [undefined, "", "1"])).toBe("a1b1");
  });

  it("redacts an error in place, keeping its type", () => {
    const error = Object.assign(new TypeError("Incorrect API key: sk-abcdef"), { responseBody: "sk-abcdef" });
    const redacted = redactError(error, ["sk-abcdef"]);
    expect(redacted).toBe(error);
    expect(redacted.message).toBe("Incorrect API key: [redacted]");
    expect(redacted.responseBody).toBe("[redacted]");
  });
});
