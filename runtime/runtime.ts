// The runtime facade: the one object route handlers talk to. Opened lazily, once per process.
import "server-only";
import { type Database, getDatabase } from "@/lib/db/database";
import { ProjectService } from "./projects/project-service";

export interface Runtime {
  readonly database: Database;
  readonly projects: ProjectService;
}

type RuntimeGlobal = typeof globalThis & { __tandemRuntime?: Promise<Runtime> };

export function createRuntime(database: Database): Runtime {
  return { database, projects: new ProjectService(database) };
}

export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as RuntimeGlobal;
  holder.__tandemRuntime ??= getDatabase()
    .then(createRuntime)
    .catch((error: unknown) => {
      holder.__tandemRuntime = undefined;
      throw error;
    });
  return holder.__tandemRuntime;
}
