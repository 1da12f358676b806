// The runtime facade: the one object route handlers talk to. Opened lazily, once per process; it
// also owns this process's scheduler (started by instrumentation.ts, or `npm run worker`).
import "server-only";
import { type Database, getDatabase } from "@/lib/db/database";
import { StepRunner } from "./engine/step-runner";
import { EventHub } from "./events/event-hub";
import { callModel } from "./models";
import { ProjectService } from "./projects/project-service";
import { Scheduler } from "./scheduler/scheduler";
import { DefinitionsCache } from "./threads/definitions";
import { ThreadService } from "./threads/thread-service";

export interface Runtime {
  readonly database: Database;
  readonly projects: ProjectService;
  readonly threads: ThreadService;
  readonly events: EventHub;
  readonly scheduler: Scheduler;
}

type RuntimeGlobal = typeof globalThis & { __tandemRuntime?: Promise<Runtime> };

export function createRuntime(database: Database): Runtime {
  const definitions = new DefinitionsCache(database.sql);
  const events = new EventHub(database.notifications);
  const scheduler = new Scheduler(
    database,
    (leaseOwner) =>
      new StepRunner({
        database,
        definitions,
        callModel: (name, models, request, options) => callModel(name, models, request, options),
        leaseOwner,
        publishChunk: (chunk) => events.publishChunk(chunk),
      }),
    {
      concurrency: Number(process.env.TANDEM_CONCURRENCY ?? 16),
      leaseMs: Number(process.env.TANDEM_LEASE_MS ?? 15_000),
    },
  );
  return {
    database,
    projects: new ProjectService(database),
    threads: new ThreadService(database, definitions, (threadId) => scheduler.abortLocally(threadId)),
    events,
    scheduler,
  };
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
