import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isSecretFieldName, isSecretHeaderName, literalSecretFields, rejectSecretKeys } from "./secrets";

describe("isSecretFieldName", () => {
  it.each([
    "apiKey",
    "api_key",
    "API-KEY",
    "Api_Key",
    "secret",
    "SECRET",
    "token",
    "Token",
    "password",
    "pass_word",
  ])("flags %j", (name) => {
    expect(isSecretFieldName(name)).toBe(true);
  });

  it.each(["apiKeyEnv", "tokens", "secretName", "passwd", "key", "api"])("leaves %j alone", (name) => {
    expect(isSecretFieldName(name)).toBe(false);
  });
});

describe("isSecretHeaderName", () => {
  it.each([
    "Authorization",
    "proxy-authorization",
    "Cookie",
    "Set-Cookie",
    "X-Api-Key",
    "x-api_key",
    "apikey",
    "X-Auth-Token",
    "X-Client-Secret",
    "X-Password",
  ])("flags %j", (name) => {
    expect(isSecretHeaderName(name)).toBe(true);
  });

  it.each(["Accept", "Content-Type", "X-Api-Version", "api--key", "X-Request-Id"])(
    "leaves %j alone",
    (name) => {
      expect(isSecretHeaderName(name)).toBe(false);
    },
  );
});

describe("literalSecretFields and rejectSecretKeys", () => {
  it("accepts an absent field and refuses any value, with the field's name and the advice", () => {
    const schema = z.object(literalSecretFields("Use env."));
    expect(schema.safeParse({}).success).toBe(true);
    for (const field of ["apiKey", "api_key", "secret", "token", "password"]) {
      for (const value of ["x", "", null, 0]) {
        expect(schema.safeParse({ [field]: value }).error?.issues, `${field}=${value}`).toEqual([
          {
            code: "custom",
            path: [field],
            params: { code: "literal_secret" },
            message: `"${field}" holds a literal secret, and definitions are stored and exported in plain text. Use env.`,
          },
        ]);
      }
    }
  });

  it("reports every secret-looking key of an open object, in order, and no other", () => {
    const schema = z
      .record(z.string(), z.unknown())
      .superRefine((value, context) => rejectSecretKeys(value, context, "Use env."));
    expect(schema.safeParse({ region: "eu", Token: "t", depth: 1, "API-KEY": "k" }).error?.issues).toEqual([
      {
        code: "custom",
        path: ["Token"],
        params: { code: "literal_secret" },
        message:
          '"Token" looks like a literal secret, and definitions are stored and exported in plain text. Use env.',
      },
      {
        code: "custom",
        path: ["API-KEY"],
        params: { code: "literal_secret" },
        message:
          '"API-KEY" looks like a literal secret, and definitions are stored and exported in plain text. Use env.',
      },
    ]);
    expect(schema.safeParse({ region: "eu" }).success).toBe(true);
  });
});
