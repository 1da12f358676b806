// The dev-only warm-up of the studio route: asked once in development, never in a production build.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STUDIO_WARM_UP_PATH, warmStudioRoute } from "./warm-studio";

describe("warmStudioRoute", () => {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? "");
    response.statusCode = 404;
    response.end();
  });
  let base = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("asks for the studio route in development, over real HTTP, and ignores its 404", async () => {
    expect(warmStudioRoute("development", (path) => fetch(`${base}${path}`))).toBe(true);
    await expect.poll(() => asked).toEqual([STUDIO_WARM_UP_PATH]);
  });

  it("asks nothing in a production build, and survives an unreachable server", () => {
    asked.length = 0;
    expect(warmStudioRoute("production", (path) => fetch(`${base}${path}`))).toBe(false);
    expect(warmStudioRoute("development", () => Promise.reject(new Error("down")))).toBe(true);
    expect(asked).toEqual([]);
  });
});
