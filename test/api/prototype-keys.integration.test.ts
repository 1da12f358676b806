// Own "__proto__", "constructor" and "prototype" keys, written raw into the JSON of every route that
// takes a body (found by walking app/**/route.ts), at the top and in every nested object: never a 500;
// "__proto__" is a 400 naming the field wherever the body is read as JSON, and nothing's prototype
// changes. Then the TypeScript and zip imports with a "__proto__" key: a 422 naming it.
import { beforeAll, describe, expect, it } from "vitest";
import { bundleToProjectFiles, zipProjectFiles } from "@/lib/codegen";
import { testServerForFile } from "../support/fixture";
import { chatDefinitions, routeBody } from "../support/route-bodies";
import { routeFiles } from "../support/routes";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

/** Routes whose body is not read as JSON: stored as bytes, handed to an extension or to the MCP SDK, or never read. */
const BODY_NOT_JSON = new Set([
  "/api/threads/[id]/fs/[...path]",
  "/api/threads/[id]/endpoints/[[...path]]",
  "/api/projects/[id]/mcp",
  "/api/malformed-url",
  "/api/threads/[id]/stop",
  "/api/threads/[id]/terminate",
  "/api/eval-runs/[runId]/cancel",
  "/api/auth/logout",
]);

type Path = (string | number)[];

/** Every object in `value` (the root included), by path. */
function objectPaths(value: unknown, path: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => objectPaths(item, [...path, index]));
  return [path, ...Object.entries(value).flatMap(([key, item]) => objectPaths(item, [...path, key]))];
}

/** JSON text of `body` with `key` written raw into the object at `path`. */
function rawJsonWithKey(body: unknown, path: Path, key: string): string {
  const marker = "__raw_key_marker__";
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target = copy;
  for (const segment of path) target = target[segment] as Record<string | number, unknown>;
  target[marker] = { polluted: true };
  return JSON.stringify(copy).replace(`"${marker}"`, JSON.stringify(key));
}

/** How the server names a field: `definitions.prompts[0].__proto__`. */
function fieldName(path: Path): string {
  return path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${key}` : key),
    "",
  );
}

let target: { projectId: string; threadId: string };

beforeAll(async () => {
  const projectId = await projectWith(chatDefinitions);
  const threadId = await startThread(projectId, "assistant", "hi");
  await waitFor(threadId, ["idle"]);
  target = { projectId, threadId };
});

async function send(method: string, url: string, body: string, contentType = "application/json") {
  const response = await fetch(`${fixture.server.baseUrl}${url}`, {
    method,
    headers: { "content-type": contentType },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

describe("prototype-named keys in every JSON body", () => {
  it("never answer 500; an own __proto__ is a 400 naming the field wherever the body is JSON", {
    timeout: 180_000,
  }, async () => {
    const routes = routeFiles()
      .flatMap((route) =>
        route.methods
          .filter((method) => ["POST", "PUT", "PATCH"].includes(method))
          .map((method) => ({ ...route, method })),
      )
      // Terminate last: it makes the target thread refuse everything after it.
      .sort((a, b) => Number(a.pattern.endsWith("terminate")) - Number(b.pattern.endsWith("terminate")));
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const failures: string[] = [];
    let refusedNamingField = 0;
    for (const route of routes) {
      const body = routeBody(route.pattern, target);
      expect(
        body,
        `no body template for ${route.method} ${route.pattern}: add one in test/support/route-bodies.ts`,
      ).toBeDefined();
      if (!body) continue;
      for (const path of objectPaths(body.template)) {
        for (const key of ["__proto__", "constructor", "prototype"]) {
          const label = `${route.method} ${route.pattern} with "${key}" at ${fieldName(path) || "the top"}`;
          const answer = await send(route.method, body.url, rawJsonWithKey(body.template, path, key));
          if (answer.status >= 500) {
            failures.push(`${label} → ${answer.status} ${answer.text.slice(0, 200)}`);
            continue;
          }
          if (answer.status >= 400 && answer.json === undefined)
            failures.push(`${label} → ${answer.status} without a JSON error`);
          if (key !== "__proto__" || BODY_NOT_JSON.has(route.pattern)) continue;
          const field = fieldName([...path, key]);
          const expected = `Invalid request: ${field}: "__proto__" is not allowed as a property name. Rename or remove it.`;
          if (answer.status !== 400 || answer.json?.error !== expected)
            failures.push(
              `${label} → ${answer.status} ${answer.text.slice(0, 200)}, expected 400 "${expected}"`,
            );
          else refusedNamingField++;
        }
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
    expect(refusedNamingField).toBeGreaterThan(20);
    expect(fixture.server.output()).not.toContain("unexpected error while handling a request");
    expect((await fixture.api("GET", "/api/health")).status).toBe(200);
  });

  it('stores "constructor" and "prototype" keys as plain data where a definition allows any name', async () => {
    const definitions = structuredClone(chatDefinitions) as { prompts: Record<string, unknown>[] };
    definitions.prompts[0]!.env = { constructor: "a", prototype: "b" };
    const created = await fixture.api<{ id: string }>("POST", "/api/projects", { name: "keys", definitions });
    expect(created.status).toBe(201);
    const read = await fixture.api<{ definitions: { prompts: { env?: unknown }[] } }>(
      "GET",
      `/api/projects/${created.body.id}`,
    );
    expect(read.body.definitions.prompts[0]?.env).toEqual({ constructor: "a", prototype: "b" });
  });
});

describe("imports with an own __proto__ key", () => {
  const prototypeEnv = 'env: { "__proto__": { polluted: "yes" } },';

  it("TypeScript: 422 with a forbidden_property diagnostic on the line that wrote it", async () => {
    const source = `import { defineAgent, definePrompt, defineModel } from "@standardagents/spec";
export const demo = defineModel({ name: "demo", provider: "scripted", model: "s", script: [{ text: "hi" }] });
export const chat = definePrompt({ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo",
  ${prototypeEnv} });
export const assistant = defineAgent({ name: "assistant", sideA: { prompt: "chat" } });
`;
    const answer = await send("POST", `/api/projects/${target.projectId}/import`, source, "text/plain");
    expect(answer.status).toBe(422);
    expect(answer.json?.code).toBe("invalid_definitions");
    expect(answer.json?.diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "forbidden_property",
        path: "prompts[0].env.__proto__",
        line: 4,
      }),
    ]);
  });

  it("zip: 422 with a forbidden_property diagnostic in the file that wrote it", async () => {
    const files = bundleToProjectFiles(chatDefinitions as never, { name: "keys" });
    const promptFile = Object.keys(files).find((file) => file.startsWith("agents/prompts/"));
    expect(promptFile).toBeDefined();
    files[promptFile!] = files[promptFile!]!.replace("definePrompt({", `definePrompt({ ${prototypeEnv}`);
    const response = await fetch(`${fixture.server.baseUrl}/api/projects/${target.projectId}/import`, {
      method: "POST",
      headers: { "content-type": "application/zip" },
      body: zipProjectFiles(files) as BodyInit,
    });
    const json = (await response.json()) as { code: string; diagnostics: Record<string, unknown>[] };
    expect(response.status).toBe(422);
    expect(json.code).toBe("invalid_definitions");
    expect(json.diagnostics).toEqual([
      expect.objectContaining({
        code: "forbidden_property",
        path: "prompts[0].env.__proto__",
        file: promptFile,
      }),
    ]);
  });
});
