import { describe, expect, it } from "vitest";
import { envLinesCodec, headersCodec, jsonCodec, listCodec, type TextCodec } from "./field-text";

function roundTrips<Value>(codec: TextCodec<Value>, value: Value) {
  expect(codec.parse(codec.format(value))).toEqual({ ok: true, value });
}

describe("inspector text codecs", () => {
  it("reads comma-separated lists, empty as unset", () => {
    expect(listCodec.parse(" a, b ,,c ")).toEqual({ ok: true, value: ["a", "b", "c"] });
    expect(listCodec.parse(" , ")).toEqual({ ok: true, value: undefined });
    roundTrips(listCodec, ["fast", "slow"]);
  });

  it("reads NAME=value lines and names the line that has no =", () => {
    expect(envLinesCodec.parse("REGION=eu\n\nURL=https://x.test/?a=b")).toEqual({
      ok: true,
      value: { REGION: "eu", URL: "https://x.test/?a=b" },
    });
    expect(envLinesCodec.parse("REGION=eu\nbroken")).toEqual({
      ok: false,
      message: "Line 2: write NAME=value.",
    });
    roundTrips(envLinesCodec, { A: "1", B: "" });
  });

  it("reads headers, with an env reference for values read from the environment", () => {
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${NAME} is the header syntax users type.
      headersCodec.parse("Accept: application/json\nAuthorization: Bearer ${API_TOKEN}\nX-Key: ${KEY}"),
    ).toEqual({
      ok: true,
      value: {
        Accept: "application/json",
        Authorization: { env: "API_TOKEN", prefix: "Bearer " },
        "X-Key": { env: "KEY" },
      },
    });
    expect(headersCodec.parse("no colon")).toMatchObject({ ok: false });
    roundTrips(headersCodec, { Authorization: { env: "T", prefix: "Token " }, Accept: "text/plain" });
  });

  it("reads JSON of the expected shape and explains what is wrong", () => {
    expect(jsonCodec("array").parse('[{"text":"hi"}]')).toEqual({ ok: true, value: [{ text: "hi" }] });
    expect(jsonCodec("array").parse("")).toEqual({ ok: true, value: undefined });
    expect(jsonCodec("array").parse("[{")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Not valid JSON yet/),
    });
    expect(jsonCodec("object").parse("[]")).toEqual({ ok: false, message: "Write a JSON object { … }." });
    roundTrips(jsonCodec("object"), { type: "object", required: ["a"] });
  });
});
