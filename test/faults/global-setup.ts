// Fault-suite setup: the suite kills processes mid-write and restarts databases, which only a
// Postgres server survives by design (README: Databases), so it needs DATABASE_URL.
import { resolveDatabaseConfig } from "../../lib/db/config";
import { setup as integrationSetup } from "../support/global-setup";

export async function setup(): Promise<void> {
  if (resolveDatabaseConfig(process.env).kind !== "postgres") {
    throw new Error(
      "The fault-injection suite runs on Postgres: set DATABASE_URL (`npm test` runs it whenever DATABASE_URL is set; CI does).",
    );
  }
  await integrationSetup();
}
