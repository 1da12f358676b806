// The migrated PGlite folder of the integration setup (global-setup.ts). Kept apart from database.ts,
// which the e2e specs import too: this one loads server-only code (lib/db/database).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../lib/db/database";

/**
 * A folder holding a migrated, cleanly closed PGlite database, to copy per test file: creating a
 * cluster and migrating it in WebAssembly costs each server ~6 s of CPU; copying the folder costs
 * a few milliseconds. The caller removes the folder.
 */
export async function preparePGliteTemplate(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tandem-pglite-template-"));
  const database = await openDatabase({ kind: "pglite", dataDir });
  await database.close();
  return dataDir;
}
