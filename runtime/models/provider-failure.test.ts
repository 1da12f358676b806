import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { ModelApiKeyMissingError, ModelProviderError } from "./errors";
import { classifyFailure, parseGoDuration, providerWaitMs } from "./provider-failure";

function httpError(statusCode: number | undefined, responseHeaders: Record<string, string> = {}) {
  return new APICallError({
    message: "provider said no",
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseHeaders,
  });
}

describe("classifyFailure", () => {
  it("tells rate limits, outages, transient and permanent failures apart", () => {
    expect(classifyFailure(httpError(429))).toBe("rate_limited");
    for (const status of [500, 502, 503, 529, 408])
      expect(classifyFailure(httpError(status))).toBe("unavailable");
    for (const status of [400, 401, 403, 404, 422]) expect(classifyFailure(httpError(status))).toBe("fatal");
    expect(classifyFailure(httpError(409))).toBe("failed");
    // No response at all: the AI SDK's APICallError without a status, or a refused connection.
    expect(classifyFailure(httpError(undefined))).toBe("unavailable");
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
    });
    expect(classifyFailure(refused)).toBe("unavailable");
    expect(classifyFailure(new Error("terminated"))).toBe("failed");
    expect(classifyFailure(new ModelProviderError("m", "scripted error"))).toBe("failed");
    expect(classifyFailure(new ModelApiKeyMissingError("m", "KEY"))).toBe("fatal");
  });
});

describe("providerWaitMs", () => {
  const now = Date.parse("2026-12-02T03:00:00Z");

  it("prefers retry-after-ms, then retry-after in seconds or as an HTTP date", () => {
    expect(providerWaitMs(httpError(429, { "retry-after-ms": "150", "retry-after": "9" }), now)).toBe(150);
    expect(providerWaitMs(httpError(429, { "retry-after": "2" }), now)).toBe(2000);
    expect(providerWaitMs(httpError(429, { "retry-after": "Wed, 02 Dec 2026 03:00:05 GMT" }), now)).toBe(
      5000,
    );
    expect(providerWaitMs(httpError(429, { "retry-after": "soon" }), now)).toBeUndefined();
    expect(providerWaitMs(httpError(429), now)).toBeUndefined();
    expect(providerWaitMs(new Error("no headers"), now)).toBeUndefined();
  });

  it("reads the reset headers of exhausted OpenAI and Anthropic limits", () => {
    expect(
      providerWaitMs(
        httpError(429, {
          "x-ratelimit-remaining-requests": "0",
          "x-ratelimit-reset-requests": "1m30s",
          "x-ratelimit-remaining-tokens": "100",
          "x-ratelimit-reset-tokens": "6m0s",
        }),
        now,
      ),
    ).toBe(90_000);
    expect(
      providerWaitMs(
        httpError(429, {
          "anthropic-ratelimit-input-tokens-remaining": "0",
          "anthropic-ratelimit-input-tokens-reset": "2026-12-02T03:00:12Z",
        }),
        now,
      ),
    ).toBe(12_000);
  });

  it("parses Go durations", () => {
    expect(parseGoDuration("20ms")).toBe(20);
    expect(parseGoDuration("1.5s")).toBe(1500);
    expect(parseGoDuration("1h2m3s")).toBe(3_723_000);
    expect(parseGoDuration("soon")).toBeUndefined();
  });
});
