// The API's fast lane (docs/deploy.md, "The production server"): the three requests a running
// conversation makes — POST /api/threads, POST /api/threads/:id/messages and GET
// /api/threads/:id/events — are handed straight to their route handlers, the same compiled modules
// Next.js serves them from, instead of through Next's per-request machinery (routing, rewrites, the
// request adapters, its tracer and its response piping: most of the server's CPU per request,
// docs/benchmarks.md). The handlers do all the work as before — `handle()` checks access, validates
// the body with zod, maps errors — so a request answers the same either way. Anything else, and any
// request the lane is not sure of (a body without a small declared length, an encoded path, a path
// with a trailing slash), goes to Next unchanged.
import { createRequire } from "node:module";
import path from "node:path";

/** Bodies the lane buffers itself; a larger or undeclared one streams through Next's adapter. */
const MAX_LANE_BODY_BYTES = 1024 * 1024;
const SEGMENT = "([A-Za-z0-9_-]+)";

const ROUTES = [
  { method: "POST", pattern: /^\/api\/threads$/, module: "app/api/threads/route.js" },
  {
    method: "POST",
    pattern: new RegExp(`^/api/threads/${SEGMENT}/messages$`),
    module: "app/api/threads/[id]/messages/route.js",
  },
  {
    method: "GET",
    pattern: new RegExp(`^/api/threads/${SEGMENT}/events$`),
    module: "app/api/threads/[id]/events/route.js",
  },
];

/**
 * The lane for the production build in `distDir` (`.next`). `lane(req, res)` answers and returns true,
 * or returns false without touching either (Next then serves the request).
 */
export function createApiFastLane(distDir) {
  const require = createRequire(path.join(distDir, "server", "noop.js"));
  const handlers = new Map();

  async function handlerFor(route, method) {
    let loaded = handlers.get(route.module);
    if (!loaded) {
      loaded = (async () => {
        const { routeModule } = require(path.join(distDir, "server", route.module));
        await routeModule.ensureUserland();
        return routeModule.userland;
      })();
      handlers.set(route.module, loaded);
    }
    const userland = await loaded;
    const handler = userland[method];
    if (typeof handler !== "function") throw new Error(`${route.module} has no ${method} handler`);
    return handler;
  }

  return function lane(req, res) {
    const url = req.url ?? "";
    const queryAt = url.indexOf("?");
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    let route;
    let match;
    for (const candidate of ROUTES) {
      if (candidate.method !== req.method) continue;
      match = candidate.pattern.exec(pathname);
      if (match) {
        route = candidate;
        break;
      }
    }
    if (!route) return false;
    const declared = req.headers["content-length"];
    let length = 0;
    if (req.method !== "GET") {
      if (declared === undefined || req.headers["transfer-encoding"] !== undefined) return false;
      length = Number(declared);
      if (!Number.isInteger(length) || length < 0 || length > MAX_LANE_BODY_BYTES) return false;
    }
    serve(req, res, route, match[1], length).catch((error) => {
      console.error("[tandem] the API fast lane failed on a request:", error);
      if (!res.headersSent)
        sendJson(res, 500, {
          error: "Something went wrong on the server. It has been logged.",
          code: "internal_error",
        });
      else res.destroy();
    });
    return true;
  };

  async function serve(req, res, route, id, length) {
    const aborted = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    const body = req.method === "GET" ? undefined : await readBody(req, length);
    // The client went away mid-body: nobody to answer, nothing done.
    if (body === null) return;
    let request;
    try {
      const headers = new Headers();
      const raw = req.rawHeaders;
      for (let index = 0; index < raw.length; index += 2) headers.append(raw[index], raw[index + 1]);
      const host = req.headers.host ?? "127.0.0.1";
      request = new Request(`http://${host}${req.url}`, {
        method: req.method,
        headers,
        body,
        signal: aborted.signal,
      });
    } catch (error) {
      // A header or host the Fetch API refuses (Node's parser is more lenient): the client's mistake.
      sendJson(res, 400, {
        error: `The request could not be read: ${error instanceof Error ? error.message : String(error)}`,
        code: "invalid_request",
      });
      return;
    }
    const handler = await handlerFor(route, req.method);
    const context = id === undefined ? undefined : { params: Promise.resolve({ id }) };
    const response = await handler(request, context);
    await writeResponse(res, response, aborted.signal);
  }
}

function sendJson(res, status, body) {
  const bytes = Buffer.from(JSON.stringify(body));
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.setHeader("content-length", bytes.length);
  res.end(bytes);
}

/** The body, at most `length` bytes; null when the client went away before sending all of it. */
function readBody(req, length) {
  return new Promise((resolve, reject) => {
    const buffer = Buffer.allocUnsafe(length);
    let offset = 0;
    req.on("data", (chunk) => {
      if (offset + chunk.length > length) {
        reject(new Error("the body is longer than its Content-Length"));
        req.destroy();
        return;
      }
      chunk.copy(buffer, offset);
      offset += chunk.length;
    });
    req.once("end", () => resolve(offset === length ? buffer : buffer.subarray(0, offset)));
    req.once("close", () => {
      if (!req.complete) resolve(null);
    });
    req.once("error", () => resolve(null));
  });
}

async function writeResponse(res, response, aborted) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  const stream = response.body;
  if (!stream) {
    res.end();
    return;
  }
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.startsWith("text/event-stream")) {
    const bytes = Buffer.from(await response.arrayBuffer());
    res.setHeader("content-length", bytes.length);
    res.end(bytes);
    return;
  }
  res.flushHeaders();
  const reader = stream.getReader();
  const stop = () => reader.cancel().catch(() => undefined);
  if (aborted.aborted) {
    await stop();
    return;
  }
  aborted.addEventListener("abort", stop, { once: true });
  // The stream ends itself with an error to disconnect a client that stopped reading (past
  // TANDEM_SSE_HIGH_WATER_BYTES, runtime/events/watch.ts): close the connection then, even while a
  // write waits for a drain that will not come. The client resumes with Last-Event-ID.
  reader.closed.catch(() => res.destroy());
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await waitForDrain(res);
      if (res.destroyed) break;
    }
    if (!res.destroyed) res.end();
  } catch {
    res.destroy();
  } finally {
    aborted.removeEventListener("abort", stop);
  }
}

function waitForDrain(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
