// How a dashboard window splits between the raw rows and the rollups (planWindow): the cut hours at
// its edges and the hour in progress raw, whole closed hours from the hour rows, whole days among
// them from the day rows; a window without a whole closed hour is all raw.
import { describe, expect, it } from "vitest";
import { DAY_US, HOUR_US } from "../store/analytics-rollups";
import { planWindow } from "./analytics-service";

const day = (n: number) => n * DAY_US;
const hour = (n: number) => n * HOUR_US;

describe("planWindow", () => {
  it("reads cut hours and the hour in progress raw, whole hours and days from the rollups", () => {
    // From 10:30 on day 1 to 14:20 on day 4, with 14:00 on day 4 the hour in progress.
    const from = day(1) + hour(10) + 30 * 60_000_000;
    const to = day(4) + hour(14) + 20 * 60_000_000;
    const plan = planWindow(from, to, day(4) + hour(14));
    expect(plan.raw).toEqual([
      [from, day(1) + hour(11)],
      [day(4) + hour(14), to],
    ]);
    expect(plan.spans).toEqual([
      { grain: "hour", fromUs: day(1) + hour(11), toUs: day(2) },
      { grain: "day", fromUs: day(2), toUs: day(4) },
      { grain: "hour", fromUs: day(4), toUs: day(4) + hour(14) },
    ]);
    expect(plan.hours).toEqual([day(1) + hour(11), day(4) + hour(14)]);
    expect(plan.days).toEqual([day(2), day(4)]);
  });

  it("uses hour rows alone when no whole day fits, and stops at the hours still open", () => {
    const plan = planWindow(day(1) + hour(3), day(3), day(1) + hour(20));
    expect(plan.raw).toEqual([
      [day(1) + hour(3), day(1) + hour(3)],
      [day(1) + hour(20), day(3)],
    ]);
    expect(plan.spans.filter((span) => span.toUs > span.fromUs)).toEqual([
      { grain: "hour", fromUs: day(1) + hour(3), toUs: day(1) + hour(20) },
    ]);
    expect(plan.days[0]).toBe(plan.days[1]);
  });

  it("reads everything raw when the window holds no whole closed hour", () => {
    const from = hour(5) + 1;
    expect(planWindow(from, hour(6) + 5, hour(9))).toEqual({
      raw: [[from, hour(6) + 5]],
      spans: [],
      hours: [hour(6), hour(6)],
      days: [hour(6), hour(6)],
    });
    // Closed hours after the window's end are not read.
    expect(planWindow(hour(2), hour(8), hour(4)).hours).toEqual([hour(2), hour(4)]);
  });
});
