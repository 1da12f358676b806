import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadExtensions } from "./registry";

const DEFINE = path.resolve(__dirname, "define.ts").split(path.sep).join("/");
const ENDPOINT = 'export default { kind: "thread_endpoint", execute: () => new Response("ok") };\n';

let directory: string;

async function write(relative: string, source: string) {
  const file = path.join(directory, "threads", relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, source);
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "tandem-endpoints-"));
  // Like the project's own extensions folder: inside an ES-module package.
  await writeFile(path.join(directory, "package.json"), '{ "type": "module" }\n');
  await write(
    "orders/[orderId].patch.ts",
    `import { defineThreadEndpoint } from ${JSON.stringify(DEFINE)};\n` +
      "export default defineThreadEndpoint((_req, state, params) => Response.json({ id: state.threadId, params }));\n",
  );
  await write("ok.mjs", ENDPOINT);
  await write("a/index.mjs", ENDPOINT);
  await write("a.mjs", ENDPOINT);
  await write("same/[x].mjs", ENDPOINT);
  await write("same/[y].get.mjs", ENDPOINT);
  await write("bad[x].mjs", ENDPOINT);
  await write("plain.mjs", 'export default () => new Response("not wrapped");\n');
  await write("tool.mjs", 'export default { description: "a tool", execute: () => null };\n');
  await write("explodes.mjs", 'throw new Error("no config");\n');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("loading thread endpoints", () => {
  it("loads defineThreadEndpoint modules with their method and path, TypeScript included", async () => {
    const registry = await loadExtensions(directory);
    const routes = registry.threadEndpoints.map((route) => `${route.method} ${route.pattern}`);
    expect(routes.sort()).toEqual(["GET /a", "GET /ok", "GET /same/[x]", "PATCH /orders/[orderId]"]);
    const patch = registry.threadEndpoints.find((route) => route.method === "PATCH")!;
    expect(patch.file).toBe(path.join(directory, "threads", "orders", "[orderId].patch.ts"));
    const state = { threadId: "t-1" } as Parameters<typeof patch.execute>[1];
    const response = await patch.execute(new Request("http://x/"), state, { orderId: "A-7" });
    expect(await response.json()).toEqual({ id: "t-1", params: { orderId: "A-7" } });
  });

  it("reports every file it cannot serve, with the reason, and keeps the rest", async () => {
    const registry = await loadExtensions(directory);
    const problems = Object.fromEntries(
      registry.problems.map((problem) => [
        path.relative(path.join(directory, "threads"), problem.file).split(path.sep).join("/"),
        problem.message,
      ]),
    );
    expect(problems).toEqual({
      "a.mjs": expect.stringMatching(/^GET \/a is already defined by a[/\\]index\.mjs$/),
      "same/[y].get.mjs": expect.stringMatching(
        /^GET \/same\/\[y\] is already defined by same[/\\]\[x\]\.mjs$/,
      ),
      "bad[x].mjs": expect.stringMatching(/"bad\[x\]" is not a valid segment/),
      "plain.mjs": "the default export must be defineThreadEndpoint(handler)",
      "tool.mjs": "the default export must be defineThreadEndpoint(handler)",
      "explodes.mjs": "failed to load: no config",
    });
  });

  it("has no endpoints without a threads/ folder", async () => {
    const registry = await loadExtensions(path.join(directory, "missing"));
    expect(registry.threadEndpoints).toEqual([]);
    expect(registry.problems).toEqual([]);
  });
});
