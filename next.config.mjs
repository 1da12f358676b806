// Next.js configuration. Database drivers stay outside the bundle (PGlite ships WASM and data
// files that must be loaded from node_modules at run time).
import { MALFORMED_PATH_REWRITES } from "./lib/routing/malformed-path.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Compression buffers Server-Sent Events; put a compressing proxy in front if you need it.
  compress: false,
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "postgres",
    // Loads TypeScript extension modules (code tools, hooks) from the extensions folder at run time.
    "tsx",
    // state.runCode: QuickJS reads its .wasm file from node_modules; esbuild strips TypeScript.
    "quickjs-emscripten",
    "esbuild",
    // Traces and metrics out (docs/observability.md): the OpenTelemetry SDK and its OTLP exporters, as installed.
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
    "@opentelemetry/sdk-metrics",
    "@opentelemetry/exporter-metrics-otlp-http",
    "@opentelemetry/exporter-metrics-otlp-proto",
    // Password hashing (argon2id): a native addon from a prebuilt package.
    "@node-rs/argon2",
  ],
  typescript: { ignoreBuildErrors: false },
  // Paths with a malformed percent-encoding answer 400 (API) or 404 (pages), not Next's 500.
  rewrites: async () => ({ beforeFiles: MALFORMED_PATH_REWRITES, afterFiles: [], fallback: [] }),
};

export default nextConfig;
