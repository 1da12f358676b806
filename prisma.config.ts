// Prisma CLI configuration. The datasource URL lives here in Prisma 7, not in schema.prisma.
import path from "node:path";
import { defineConfig } from "prisma/config";

// Offline machines cannot download Prisma's native schema engine. `prisma generate` never runs it,
// so point the CLI at a stub; migrations go through scripts/migrate.mjs instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, "prisma/no-schema-engine.sh");
process.env.CHECKPOINT_DISABLE ??= "1";
process.env.PRISMA_HIDE_UPDATE_MESSAGE ??= "1";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/unused-by-generate" },
});
