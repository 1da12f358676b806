import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseAnalyticsQuery } from "./analytics";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 11, 2, 6, 30);
const parse = (query: string) => parseAnalyticsQuery(new URLSearchParams(query), NOW);

function refusal(query: string): { path: string; message: string } {
  try {
    parse(query);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    const issue = error.issues[0];
    return { path: String(issue?.path.join(".")), message: String(issue?.message) };
  }
  throw new Error(`${query} was accepted`);
}

describe("parseAnalyticsQuery", () => {
  it("defaults to the 7 days before now, by hour", () => {
    expect(parse("")).toEqual({ from: NOW - 7 * DAY, to: NOW, bucket: "hour", outcomes: false });
    expect(parse("from=&to=&bucket=")).toEqual({
      from: NOW - 7 * DAY,
      to: NOW,
      bucket: "hour",
      outcomes: false,
    });
  });

  it("reads ISO 8601 (with offsets, dates as UTC midnight) and epoch milliseconds", () => {
    expect(parse("from=2026-12-01T00:00:00Z&to=2026-12-02")).toEqual({
      from: Date.UTC(2026, 11, 1),
      to: Date.UTC(2026, 11, 2),
      bucket: "hour",
      outcomes: false,
    });
    expect(parse("from=2026-12-01T02:00:00%2B02:00&to=1796169600000").from).toBe(Date.UTC(2026, 11, 1));
    expect(parse("from=2026-12-01T02:00:00%2B02:00&to=1796169600000").to).toBe(1796169600000);
  });

  it("defaults to days beyond 7 days, and keeps an explicit bucket", () => {
    expect(parse(`from=${NOW - 7 * DAY - 1}`).bucket).toBe("day");
    expect(parse(`from=${NOW - 7 * DAY}`).bucket).toBe("hour");
    expect(parse(`from=${NOW - 30 * DAY}&bucket=hour`).bucket).toBe("hour");
    expect(parse("bucket=day").bucket).toBe("day");
  });

  it("adds the outcomes when asked", () => {
    expect(parse("include=outcomes").outcomes).toBe(true);
  });

  it("names the parameter of every bad value", () => {
    expect(refusal("from=yesterday")).toMatchObject({ path: "from" });
    expect(refusal("to=2026-02-30T25:00:00Z")).toMatchObject({ path: "to" });
    expect(refusal("from=1.5")).toMatchObject({ path: "from" });
    expect(refusal("from=-5")).toMatchObject({ path: "from" });
    expect(refusal("include=all")).toMatchObject({ path: "include" });
    expect(refusal("bucket=week")).toEqual({ path: "bucket", message: 'must be hour or day (got "week")' });
    expect(refusal(`from=${NOW}&to=${NOW}`)).toEqual({ path: "from", message: "must be before `to`" });
    expect(refusal("from=2000-01-01&bucket=hour")).toMatchObject({ path: "bucket" });
    expect(refusal("from=2000-01-01&bucket=hour").message).toContain("bucket=day");
  });
});
