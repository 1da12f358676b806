import { describe, expect, it } from "vitest";
import {
  authoriseRequest,
  bearerToken,
  cookieValue,
  SESSION_COOKIE,
  safeNextPath,
  secretsMatch,
  sessionCookieHeader,
  sessionCookieValue,
} from "./api-token";

const env = { TANDEM_API_TOKEN: "s3cret-token" };
const headers = (init: Record<string, string>) => new Headers(init);

describe("authoriseRequest", () => {
  it("lets everything through when no token is configured", () => {
    expect(authoriseRequest(headers({}), {})).toEqual({ ok: true, required: false });
    expect(authoriseRequest(headers({}), { TANDEM_API_TOKEN: "  " })).toEqual({ ok: true, required: false });
  });

  it("accepts the bearer token and refuses a missing or wrong one", () => {
    expect(authoriseRequest(headers({ authorization: "Bearer s3cret-token" }), env).ok).toBe(true);
    expect(authoriseRequest(headers({ authorization: "bearer s3cret-token" }), env).ok).toBe(true);
    expect(authoriseRequest(headers({}), env)).toEqual({ ok: false, reason: "missing_credentials" });
    expect(authoriseRequest(headers({ authorization: "Bearer s3cret-tokeN" }), env)).toEqual({
      ok: false,
      reason: "invalid_credentials",
    });
    expect(authoriseRequest(headers({ authorization: "Basic czNjcmV0LXRva2Vu" }), env).ok).toBe(false);
    expect(authoriseRequest(headers({ authorization: "Bearer s3cret-token-and-more" }), env).ok).toBe(false);
  });

  it("accepts the session cookie, which holds a value derived from the token, not the token", () => {
    const value = sessionCookieValue("s3cret-token");
    expect(value).not.toContain("s3cret");
    expect(authoriseRequest(headers({ cookie: `theme=dark; ${SESSION_COOKIE}=${value}` }), env).ok).toBe(
      true,
    );
    expect(authoriseRequest(headers({ cookie: `${SESSION_COOKIE}=s3cret-token` }), env).ok).toBe(false);
    expect(
      authoriseRequest(headers({ cookie: `${SESSION_COOKIE}=${sessionCookieValue("old")}` }), env).ok,
    ).toBe(false);
  });
});

describe("the pieces", () => {
  it("compares secrets of any length without throwing", () => {
    expect(secretsMatch("a", "a")).toBe(true);
    expect(secretsMatch("a", "ab")).toBe(false);
    expect(secretsMatch("", "x".repeat(10_000))).toBe(false);
  });

  it("parses the Authorization and Cookie headers", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
    expect(cookieValue("a=1; b=2=3", "b")).toBe("2=3");
    expect(cookieValue("a=1", "b")).toBeUndefined();
  });

  it("sets an HttpOnly, SameSite=Strict cookie, Secure over https", () => {
    const cookie = sessionCookieHeader("t", false);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    expect(sessionCookieHeader("t", true)).toMatch(/; Secure$/);
  });

  it("only redirects to local paths after signing in", () => {
    expect(safeNextPath("/projects/1?tab=runs")).toBe("/projects/1?tab=runs");
    for (const unsafe of ["//evil.example", "/\\evil.example", "https://evil.example", "evil", "", null])
      expect(safeNextPath(unsafe)).toBe("/");
  });
});
