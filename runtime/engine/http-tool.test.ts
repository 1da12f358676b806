import { describe, expect, it } from "vitest";
import type { HttpToolDefinition } from "@/lib/spec";
import { HttpToolError, isPrivateAddress, planHttpRequest, runHttpTool } from "./http-tool";

const weather: HttpToolDefinition = {
  name: "weather",
  description: "Weather for a city",
  kind: "http",
  method: "GET",
  url: "https://api.example.com/cities/{city}/weather",
  headers: { Authorization: { env: "WEATHER_KEY", prefix: "Bearer " }, "X-Client": "tandem" },
};

describe("planHttpRequest", () => {
  it("fills the URL template with encoded arguments and sends the rest as the query", () => {
    expect(
      planHttpRequest(weather, { city: "São Paulo/Centro", units: "metric" }, { WEATHER_KEY: "k1" }),
    ).toEqual({
      url: "https://api.example.com/cities/S%C3%A3o%20Paulo%2FCentro/weather?units=metric",
      method: "GET",
      headers: { Authorization: "Bearer k1", "X-Client": "tandem" },
    });
  });

  it("sends the remaining arguments as a JSON body for POST", () => {
    const plan = planHttpRequest({ ...weather, method: "POST", headers: {} }, { city: "Oslo", days: 3 }, {});
    expect(plan).toEqual({
      url: "https://api.example.com/cities/Oslo/weather",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"days":3}',
    });
  });

  it("names a missing environment variable without revealing anything else", () => {
    expect(() => planHttpRequest(weather, { city: "Oslo" }, {})).toThrow(
      new HttpToolError(
        "The server has no environment variable WEATHER_KEY (needed for header Authorization).",
      ),
    );
  });

  it("refuses a missing URL argument", () => {
    expect(() => planHttpRequest(weather, {}, { WEATHER_KEY: "k" })).toThrow(
      'Missing argument "city" for the URL.',
    );
  });
});

describe("private addresses", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "0.0.0.0",
  ])("%s is private", (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(["93.184.216.34", "172.32.0.1", "2606:4700::1111"])("%s is public", (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  it("refuses to call a loopback address unless allowed", async () => {
    const local = { ...weather, url: "http://127.0.0.1:9/{city}", headers: {} };
    await expect(runHttpTool(local, { city: "x" }, { env: {} })).rejects.toThrow(/private or loopback/);
  });
});
