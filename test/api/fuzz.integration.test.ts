// Fuzzing every body-taking route (POST, PUT, PATCH) of the real server with malformed input: random
// JSON, wrong types, huge strings, deep nesting, NUL characters, invalid UTF-8, truncated JSON and
// wrong content types. Deterministic (a fixed seed; FUZZ_SEED picks another) and bounded in time.
// Every answer must come within 10 s and be below 500, and the malformed kinds must be 4xx; afterwards
// a bystander project and thread stored before the run must be exactly as they were. Accounts are on
// (docs/security.md): the run is signed in as the first admin, so every route's handler is reached.
import { beforeAll, describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { chatDefinitions, routeBody } from "../support/route-bodies";
import { PLACEHOLDER_ID, routeFiles } from "../support/routes";
import { threadHelpers } from "../support/thread-helpers";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const BUDGET_MS = 45_000;
const CASES_PER_ROUTE = 80;
const JSON_LIMIT = 256 * 1024;

const fixture = testServerForFile({
  TANDEM_MAX_JSON_BODY_BYTES: String(JSON_LIMIT),
  TANDEM_SECRETS_KEY: "f0".repeat(32),
});
let session = "";
const { projectWith, startThread, waitFor } = threadHelpers(fixture);

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}
type Random = ReturnType<typeof random>;

const STRINGS = [
  "",
  " ",
  "x",
  "🙂",
  "\ud800",
  "a\u0000b",
  "../../etc/passwd",
  "null",
  "{}",
  "<script>",
  "%00",
  "\\",
];

function randomString(rng: Random): string {
  if (rng.int(4) === 0) return rng.pick(STRINGS);
  let text = "";
  for (let i = rng.int(40); i > 0; i--)
    text += String.fromCharCode(rng.int(4) === 0 ? rng.int(0x10000) : 32 + rng.int(95));
  return text;
}

function randomJson(rng: Random, depth = 0): unknown {
  switch (rng.int(depth > 3 ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return rng.int(2) === 0;
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, rng.int(1_000_000)]);
    case 3:
    case 4:
      return randomString(rng);
    case 5:
    case 6:
      return Object.fromEntries(
        Array.from({ length: rng.int(5) }, () => [randomString(rng), randomJson(rng, depth + 1)]),
      );
    default:
      return Array.from({ length: rng.int(5) }, () => randomJson(rng, depth + 1));
  }
}

/** A valid-looking body with one field given a value of the wrong kind, or removed. */
function mutated(rng: Random, template: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(template);
  const keys = Object.keys(copy);
  const key = keys.length > 0 && rng.int(4) !== 0 ? rng.pick(keys) : randomString(rng);
  if (rng.int(5) === 0) delete copy[key];
  else
    copy[key] = rng.pick<unknown>([
      42,
      true,
      null,
      [],
      {},
      [1, 2],
      { nested: { deeper: [null] } },
      randomJson(rng),
    ]);
  return copy;
}

interface FuzzCase {
  kind: string;
  body: string | Uint8Array;
  contentType?: string;
  /** Kinds that are malformed whatever the route: the answer must be a 4xx. */
  mustRefuse: boolean;
}

function nextCase(rng: Random, template: Record<string, unknown>): FuzzCase {
  const contentType = () =>
    rng.pick([
      "application/json",
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/xml",
      undefined,
    ]);
  const valid = JSON.stringify(template);
  switch (rng.int(10)) {
    case 0:
      return {
        kind: "random json",
        body: JSON.stringify(randomJson(rng)),
        contentType: contentType(),
        mustRefuse: false,
      };
    case 1:
    case 2:
      return {
        kind: "wrong types",
        body: JSON.stringify(mutated(rng, template)),
        contentType: "application/json",
        mustRefuse: false,
      };
    case 3: {
      const depth = rng.pick([65, 500, 20_000]);
      const inner =
        rng.int(2) === 0
          ? "[".repeat(depth) + "]".repeat(depth)
          : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      return {
        kind: "deep nesting",
        body: JSON.stringify({ ...template, extra: "" }).replace('""', inner),
        contentType: "application/json",
        mustRefuse: true,
      };
    }
    case 4: {
      const bytes = new Uint8Array(1 + rng.int(64));
      for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(256);
      bytes[0] = rng.pick([0xff, 0xfe, 0xc0, 0x80]); // never valid UTF-8, never valid JSON
      return { kind: "invalid utf-8", body: bytes, contentType: contentType(), mustRefuse: true };
    }
    case 5:
      return {
        kind: "truncated json",
        body: valid.slice(0, Math.max(1, rng.int(valid.length - 1))),
        contentType: contentType(),
        mustRefuse: true,
      };
    case 6: {
      const key = rng.pick(Object.keys(template).concat(["name"]));
      return {
        kind: "nul character",
        body: JSON.stringify({ ...template, [key]: `before\u0000after` }),
        contentType: "application/json",
        mustRefuse: true,
      };
    }
    case 7:
      return {
        kind: "huge string",
        body: JSON.stringify({ ...template, name: "x".repeat(JSON_LIMIT + rng.int(1000)) }),
        contentType: "application/json",
        mustRefuse: true,
      };
    case 8:
      return {
        kind: "not json",
        body: rng.pick(["<xml/>", "name=x&y=z", "--x\r\n\r\n--x--", "undefined", "NaN", "{'a':1}"]),
        contentType: contentType(),
        mustRefuse: true,
      };
    default:
      return {
        kind: "empty",
        body: rng.pick(["", "   ", "\n"]),
        contentType: contentType(),
        mustRefuse: false,
      };
  }
}

const chat = chatDefinitions;

let target: { projectId: string; threadId: string };
let bystander: {
  projectId: string;
  threadId: string;
  project: unknown;
  versions: unknown;
  messages: unknown;
  thread: unknown;
};

async function snapshot(projectId: string, threadId: string) {
  const project = (await fixture.api("GET", `/api/projects/${projectId}`)).body;
  const versions = (await fixture.api("GET", `/api/projects/${projectId}/versions`)).body;
  const messages = (await fixture.api("GET", `/api/threads/${threadId}/messages?includeSilent=true`)).body;
  const { thread } = (
    await fixture.api<{ thread: Record<string, unknown> }>("GET", `/api/threads/${threadId}`)
  ).body;
  return { project, versions, messages, thread };
}

beforeAll(async () => {
  const setup = await fixture.api("POST", "/api/auth/setup", {
    email: "fuzz-admin@example.com",
    password: "fuzz-admin-password",
    name: "Fuzz admin",
  });
  expect(setup.status, JSON.stringify(setup.body)).toBe(201);
  session = /tandem_session=[^;]*/.exec(setup.headers.get("set-cookie") ?? "")?.[0] ?? "";
  fixture.useHeaders?.({ cookie: session });
  expect((await fixture.api("GET", "/api/projects")).status).toBe(200);
  const bystanderProject = await projectWith(chat);
  expect((await fixture.api("PUT", `/api/projects/${bystanderProject}/definitions`, chat)).status).toBe(200);
  const bystanderThread = await startThread(bystanderProject, "assistant", "hi");
  await waitFor(bystanderThread, ["idle"]);
  bystander = {
    projectId: bystanderProject,
    threadId: bystanderThread,
    ...(await snapshot(bystanderProject, bystanderThread)),
  };
  const targetProject = await projectWith(chat);
  const targetThread = await startThread(targetProject, "assistant", "hi");
  await waitFor(targetThread, ["idle"]);
  target = { projectId: targetProject, threadId: targetThread };
});

function templatesFor(pattern: string) {
  return routeBody(pattern, target);
}

/** Routes that take any body (or none) and may rightly succeed with it. */
const ACCEPTS_ANYTHING = new Set([
  "/api/threads/[id]/fs/[...path]",
  "/api/threads/[id]/stop",
  "/api/threads/[id]/replay",
  "/api/projects/[id]/replays",
  "/api/threads/[id]/terminate",
  "/api/auth/logout",
]);

describe("fuzzing every POST, PUT and PATCH route", () => {
  it("answers malformed input with 4xx, never 5xx or a hang, and loses nothing", {
    timeout: 120_000,
  }, async () => {
    const routes = routeFiles().flatMap((route) =>
      route.methods
        .filter((method) => ["POST", "PUT", "PATCH"].includes(method))
        .map((method) => ({ ...route, method })),
    );
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const rng = random(SEED);
    const started = Date.now();
    const failures: string[] = [];
    let sent = 0;
    // Terminate last: it makes the target thread refuse everything after it.
    routes.sort((a, b) => Number(a.pattern.endsWith("terminate")) - Number(b.pattern.endsWith("terminate")));
    for (const route of routes) {
      const target = templatesFor(route.pattern);
      expect(target, `no fuzz template for ${route.method} ${route.pattern}: add one`).toBeDefined();
      if (!target) continue;
      for (let index = 0; index < CASES_PER_ROUTE && Date.now() - started < BUDGET_MS; index++) {
        const fuzz = nextCase(rng, target.template);
        const url =
          rng.int(12) === 0
            ? target.url.replace(/[0-9a-f-]{36}/, rng.pick(["not-a-uuid", PLACEHOLDER_ID, "%00", "1"]))
            : target.url;
        const label = `${route.method} ${url} [${fuzz.kind}, ${fuzz.contentType ?? "no content type"}]`;
        let status: number;
        try {
          const response = await fetch(`${fixture.server.baseUrl}${url}`, {
            method: route.method,
            headers: {
              ...(fuzz.contentType ? { "content-type": fuzz.contentType } : {}),
              // Signed in everywhere but the ways in and out (a fuzzed logout would end the session).
              ...(url.startsWith("/api/auth/") ? {} : { cookie: session }),
            },
            body: fuzz.body as BodyInit,
            signal: AbortSignal.timeout(10_000),
          });
          status = response.status;
          const text = await response.text();
          if (status >= 500) failures.push(`${label} → ${status} ${text.slice(0, 200)}`);
          else if (fuzz.mustRefuse && !ACCEPTS_ANYTHING.has(route.pattern) && (status < 400 || status >= 500))
            failures.push(`${label} → ${status}, expected a 4xx`);
          else if (status >= 400 && !text.startsWith("{"))
            failures.push(`${label} → ${status} without a JSON error`);
        } catch (error) {
          failures.push(`${label} → no answer: ${(error as Error).message}`);
        }
        sent++;
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
    expect(sent).toBeGreaterThan(100);

    // Nothing lost: the bystander is exactly as it was, the target still reads.
    const after = await snapshot(bystander.projectId, bystander.threadId);
    expect(after.project).toEqual(bystander.project);
    expect(after.versions).toEqual(bystander.versions);
    expect(after.messages).toEqual(bystander.messages);
    expect(after.thread).toEqual(bystander.thread);
    expect((await fixture.api("GET", `/api/projects/${target.projectId}`)).status).toBe(200);
    const versions = await fixture.api<{ versions: { version: number }[] }>(
      "GET",
      `/api/projects/${target.projectId}/versions`,
    );
    expect(versions.body.versions.map((version) => version.version)).toContain(1);
    expect((await fixture.api("GET", `/api/threads/${target.threadId}/messages`)).status).toBe(200);
    const health = await fixture.api("GET", "/api/health");
    expect(health.status).toBe(200);
  });
});
