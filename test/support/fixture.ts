// One real Tandem server per test file, on its own database, started before the file's tests and
// stopped (database dropped) after them. `api` talks JSON to it.
import { afterAll, beforeAll } from "vitest";
import { createIsolatedDatabaseConfig } from "./database";
import { type JsonResponse, requestJson } from "./http";
import { startTestServer, type TestServer } from "./server";

export interface ServerFixture {
  /** The running server (only inside tests and hooks). */
  readonly server: TestServer;
  /** The file's own database when it is a Postgres server (null on PGlite). */
  readonly databaseUrl: string | null;
  /** The file's own PGlite folder (null on a Postgres server). */
  readonly pgliteDir?: string | null;
  api<Body = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<JsonResponse<Body>>;
  /** Headers every later `api` call sends (a session cookie, once a test has signed in). */
  useHeaders?(headers: Record<string, string>): void;
}

export function testServerForFile(env: Record<string, string> = {}): ServerFixture {
  let server: TestServer | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | null = null;
  let pgliteDir: string | null = null;
  let defaultHeaders: Record<string, string> = {};

  beforeAll(async () => {
    const database = await createIsolatedDatabaseConfig();
    dropDatabase = database.drop;
    databaseUrl = database.config.kind === "postgres" ? database.config.url : null;
    pgliteDir = database.config.kind === "pglite" ? (database.config.dataDir ?? null) : null;
    server = await startTestServer({ ...database.env, ...env });
  });

  afterAll(async () => {
    await server?.stop();
    await dropDatabase?.();
  });

  const fixture: ServerFixture = {
    get server() {
      if (!server) throw new Error("The test server is not running (use it inside tests and hooks).");
      return server;
    },
    get databaseUrl() {
      return databaseUrl;
    },
    get pgliteDir() {
      return pgliteDir;
    },
    api: (method, path, body) =>
      requestJson(fixture.server.baseUrl, method, path, body, { headers: defaultHeaders }),
    useHeaders(headers) {
      defaultHeaders = headers;
    },
  };
  return fixture;
}
