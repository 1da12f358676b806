import { describe, expect, it } from "vitest";
import { MAX_FAILURES, SignInLimiter, WINDOW_MS } from "./sign-in-limiter";

describe("the sign-in limiter", () => {
  it("locks an email after MAX_FAILURES failures until the oldest leaves the window", () => {
    let now = 1_000_000;
    const limiter = new SignInLimiter(() => now);
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect(limiter.retryAfterSeconds("a@x", "1.2.3.4")).toBe(0);
      limiter.recordFailure("a@x", "1.2.3.4");
    }
    expect(limiter.retryAfterSeconds("a@x", "5.6.7.8")).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds("b@x", "5.6.7.8")).toBe(0);
    now += WINDOW_MS + 1;
    expect(limiter.retryAfterSeconds("a@x", "1.2.3.4")).toBe(0);
  });

  it("forgets an email's failures after a success", () => {
    const limiter = new SignInLimiter();
    for (let i = 0; i < MAX_FAILURES - 1; i++) limiter.recordFailure("a@x", "ip");
    limiter.recordSuccess("a@x");
    limiter.recordFailure("a@x", "ip");
    expect(limiter.retryAfterSeconds("a@x", "ip")).toBe(0);
  });
});
