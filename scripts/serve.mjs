// The production server (`npm start`; docs/deploy.md, "The production server"): Next.js's request
// handler on a plain Node HTTP server, with the API's fast lane (scripts/api-fast-lane.mjs) in
// front for the three requests a running conversation makes. Flags as `next start`'s:
//   node scripts/serve.mjs [-H 127.0.0.1] [-p 3000] [--keepAliveTimeout <ms>]
// The host is 127.0.0.1 unless -H names another (never every interface unless asked; HOSTNAME from
// the environment is not read: containers set it to their own name). PORT is read when -p is not given.
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { createApiFastLane } from "./api-fast-lane.mjs";

const { values } = parseArgs({
  options: {
    hostname: { type: "string", short: "H" },
    port: { type: "string", short: "p" },
    keepAliveTimeout: { type: "string" },
  },
});

const hostname = values.hostname ?? "127.0.0.1";
const port = Number(values.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`The port must be a whole number from 0 to 65535; got "${values.port ?? process.env.PORT}".`);
  process.exit(1);
}
const keepAliveTimeout = values.keepAliveTimeout === undefined ? undefined : Number(values.keepAliveTimeout);
if (keepAliveTimeout !== undefined && !(Number.isInteger(keepAliveTimeout) && keepAliveTimeout >= 0)) {
  console.error(
    `--keepAliveTimeout must be a whole number of milliseconds; got "${values.keepAliveTimeout}".`,
  );
  process.exit(1);
}

// Before Next.js or React is loaded: both pick their production builds from it when they load.
process.env.NODE_ENV ??= "production";
if (process.env.NODE_ENV !== "production")
  console.warn(`[tandem] NODE_ENV is "${process.env.NODE_ENV}"; the production server expects "production".`);
const { default: next } = await import("next");

const dir = process.cwd();
const app = next({ dev: false, dir, hostname, port });
const handle = app.getRequestHandler();
const lane = process.env.TANDEM_API_FAST_LANE === "false" ? null : createApiFastLane(path.join(dir, ".next"));

await app.prepare();
const server = http.createServer((req, res) => {
  if (lane?.(req, res)) return;
  handle(req, res);
});
if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
server.listen(port, hostname, () => {
  const address = server.address();
  const shown = typeof address === "object" && address ? address.port : port;
  console.log(`[tandem] ready on http://${hostname}:${shown}${lane ? "" : " (API fast lane off)"}`);
});
