import { describe, expect, it } from "vitest";
import { PayloadTooLargeError } from "@/runtime/errors";
import { errorResponse, parseJsonBody, readBodyBytes } from "./http";

async function refusal(run: () => unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await run();
  } catch (error) {
    const response = errorResponse(error);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  throw new Error("expected a refusal");
}

describe("parseJsonBody", () => {
  it('refuses an own "__proto__" key anywhere with a 400 that names the field', async () => {
    for (const [text, where] of [
      ['{"__proto__":{"polluted":true}}', "__proto__"],
      [
        '{"name":"x","definitions":{"prompts":[{"env":{"__proto__":"v"}}]}}',
        "definitions.prompts[0].env.__proto__",
      ],
      ['[{"a":{"__proto__":null}}]', "[0].a.__proto__"],
    ] as const) {
      const { status, body } = await refusal(() => parseJsonBody(text));
      expect(status, text).toBe(400);
      expect(body.code).toBe("invalid_request");
      expect(body.error).toBe(
        `Invalid request: ${where}: "__proto__" is not allowed as a property name. Rename or remove it.`,
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps "constructor" and "prototype" keys as plain data', () => {
    const body = parseJsonBody('{"constructor":{"prototype":1},"prototype":"x"}') as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["constructor", "prototype"]);
    expect(body.constructor).toEqual({ prototype: 1 });
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it("refuses NUL characters and nesting past 64 levels, and reads an empty body as undefined", async () => {
    expect(parseJsonBody("  ")).toBeUndefined();
    expect((await refusal(() => parseJsonBody('{"a":"x\\u0000"}'))).status).toBe(400);
    expect((await refusal(() => parseJsonBody(`${"[".repeat(65)}${"]".repeat(65)}`))).status).toBe(400);
    expect(parseJsonBody(`${"[".repeat(63)}${"]".repeat(63)}`)).toBeDefined();
  });
});

/** A chunked request body (no Content-Length) that counts how many chunks were pulled and whether it was cancelled. */
function streamingRequest(chunks: number, chunkBytes: number, headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(chunkBytes));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  const request = new Request("http://localhost/x", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
  return { request, seen };
}

describe("readBodyBytes", () => {
  const limit = { bytes: 1000, setting: "TANDEM_MAX_JSON_BODY_BYTES" };

  it("abandons a streamed body as soon as it passes the limit: 413, the stream cancelled, the rest never read", async () => {
    const { request, seen } = streamingRequest(100, 300);
    const { status, body } = await refusal(() => readBodyBytes(request, limit));
    expect(status).toBe(413);
    expect(body.code).toBe("payload_too_large");
    expect(body.error).toContain("TANDEM_MAX_JSON_BODY_BYTES");
    expect(seen.pulled).toBeLessThanOrEqual(5);
    expect(seen.cancelled).toBe(true);
  });

  it("reads a streamed body of exactly the limit", async () => {
    const { request } = streamingRequest(4, 250);
    expect((await readBodyBytes(request, limit)).byteLength).toBe(1000);
  });

  it("refuses a declared Content-Length over the limit before reading anything", async () => {
    const { request } = streamingRequest(100, 300, { "content-length": "30000" });
    await expect(readBodyBytes(request, limit)).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(request.bodyUsed).toBe(false);
  });
});
