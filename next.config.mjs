// Next.js configuration. Database drivers stay outside the bundle (PGlite ships WASM and data
// files that must be loaded from node_modules at run time).
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
  ],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
