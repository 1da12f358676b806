// A runtime on a fresh database of one backend, its scheduler started before the describe block's
// tests and stopped (the database closed, and dropped on Postgres) after them — the setup the
// runtime's own integration tests share.
import { afterAll, beforeAll } from "vitest";
import type { Database } from "../../lib/db/database";
import { createRuntime, type Runtime } from "../../runtime/runtime";
import { openTestDatabase, type TestBackend } from "./open-database";

export interface StartedRuntime {
  readonly runtime: Runtime;
  readonly database: Database;
}

/** Call inside a describe block; read `.runtime` and `.database` in its tests (set once beforeAll ran). */
export function useStartedRuntime(backend: TestBackend): StartedRuntime {
  let database: Database | undefined;
  let runtime: Runtime | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(backend);
    runtime = createRuntime(database);
    await runtime.scheduler.start();
  });
  afterAll(async () => {
    await runtime?.scheduler.stop();
    await database?.close();
  });
  const started = (): { runtime: Runtime; database: Database } => {
    if (!runtime || !database) throw new Error("useStartedRuntime: read it in a test, after beforeAll");
    return { runtime, database };
  };
  return {
    get runtime() {
      return started().runtime;
    },
    get database() {
      return started().database;
    },
  };
}
