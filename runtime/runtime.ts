// The runtime facade: route handlers talk to the Runtime object and the exports at the end of this
// file, and to nothing else in runtime/ but errors.ts and security/api-token.ts (biome.json enforces
// it; docs/runtime.md). Opened lazily, once per process; it also owns this process's scheduler
// (started by runtime/process-lifecycle.ts: an app server or `npm run worker`).

import { type ParkedCacheLimits, ParkedCaches } from "./engine/parked-caches";
import { parkedHere } from "./engine/parked-here";
import "server-only";
import { type DatabaseConfig, describeDatabase } from "@/lib/db/config";
import type { Database } from "@/lib/db/database";
import { credentialVariable, type ModelDefinition } from "@/lib/standard";
import { EffectRunner } from "./effects/effect-runner";
import { effectSettingsFromEnv } from "./effects/settings";
import { threadCacheBytes } from "./engine/step/run-memory";
import { StepRunner, type ThreadCache } from "./engine/step-runner";
import { loadThreadState } from "./engine/thread-state";
import { EventHub } from "./events/event-hub";
import { LiveWatch, watchSettingsFromEnv } from "./events/watch";
import { DEFAULT_HOOK_TIMEOUT_MS, declaredHookIds, HookRunner } from "./extensions/hook-runner";
import type { McpServerStatus } from "./extensions/mcp-clients";
import { type ExtensionRegistry, getExtensions } from "./extensions/registry";
import { callModel } from "./models";
import { modelRetrySettingsFromEnv } from "./models/retry-settings";
import { Scheduler } from "./scheduler/scheduler";
import { schedulerSettingsFromEnv } from "./scheduler/settings";
import { awayFromStepSlot } from "./scheduler/step-slots";
import { AccessService } from "./services/access-service";
import { ActivityService } from "./services/activity-service";
import { AnalyticsService } from "./services/analytics-service";
import { ApprovalService } from "./services/approval-service";
import { EffectService } from "./services/effect-service";
import { EvalService } from "./services/eval-service";
import { EventLogService } from "./services/event-log-service";
import { LoadService } from "./services/load-service";
import { McpAgentServer } from "./services/mcp-agent-server";
import { ProjectService } from "./services/project-service";
import { ThreadDiffService } from "./services/thread-diff";
import { endpointTimeoutMsFromEnv, ThreadEndpointService } from "./services/thread-endpoints";
import { ThreadFileService } from "./services/thread-files";
import { ThreadForkService } from "./services/thread-fork";
import { ThreadReplayService } from "./services/thread-replay";
import { ThreadService } from "./services/thread-service";
import { storeToolAttachments } from "./store/attachments";
import { pingDatabase } from "./store/database-ping";
import { DefinitionsCache } from "./store/definitions";
import { processDatabase } from "./store/process-database";
import { wakeParent } from "./store/thread-scheduling";
import { findThread } from "./store/thread-store";
import { EnvRequestService } from "./subagents/env-requests";
import { ParentWaker } from "./subagents/parent-waker";
import { subagentLimitsFromEnv } from "./subagents/spawn-child";
import { metrics } from "./telemetry/metrics";

/**
 * Parked threads whose in-memory history a process keeps for their next run: thousands of chats
 * waiting for their user's next message each answer it without reading their history back.
 */
const PARKED_CACHE_LIMITS = { entries: 8_192, bytes: 64 * 1024 ** 2 };
/**
 * Children (and threads) created by this process, until their first run takes their cache (one
 * message each): as many as may be at work (TANDEM_MAX_ACTIVE_THREADS' default), so a fan-out of
 * thousands starts and reports every child without reading it back.
 */
const SPAWNED_CACHE_LIMITS = { entries: 10_000, bytes: 32 * 1024 ** 2 };

/** Which database a runtime runs on, for GET /api/health (never its credentials). */
export interface DatabaseInfo {
  kind: DatabaseConfig["kind"];
  /** Where it is, its URL's password redacted (describeDatabase). */
  description: string;
}

export interface Runtime {
  /** Resolves once the database answers a trivial statement; rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Which database this runtime uses (GET /api/health). */
  databaseInfo(): DatabaseInfo;
  /** Closes the database connections (the last step of a process's shutdown). */
  closeDatabase(): Promise<void>;
  readonly projects: ProjectService;
  readonly threads: ThreadService;
  readonly events: EventHub;
  /** Live event streams: one subscription and one encoding per tree, shared by every viewer. */
  readonly watch: LiveWatch;
  readonly scheduler: Scheduler;
  /** Scoped variable bootstrap requests of deferred subagents (spec §7.8). */
  readonly envRequests: EnvRequestService;
  /** What a project's threads are doing now, per agent and prompt (the studio's run overlay). */
  readonly activity: ActivityService;
  /** A project's aggregates over time: runs, model calls, tokens, cost, latency (the dashboard). */
  readonly analytics: AnalyticsService;
  /** Thread filesystems (the fs routes). */
  readonly files: ThreadFileService;
  /** The replayable event log (the SSE route). */
  readonly eventLog: EventLogService;
  /** Waiting and running threads, model calls in flight (GET /api/health). */
  readonly load: LoadService;
  /** Thread endpoints from the extensions' `threads/` folder (the endpoints route). */
  readonly endpoints: ThreadEndpointService;
  /** Scheduled effects: the routes' service, and this process's runner (started beside the scheduler). */
  readonly effects: EffectService;
  readonly effectRunner: EffectRunner;
  /** The project's `exposeAsTool` agents as an MCP server (Streamable HTTP). */
  readonly mcpServer: McpAgentServer;
  /** The MCP servers of extensions/mcp.json with their tools (the studio's palette). */
  mcpServers(): Promise<McpServerStatus[]>;
  /** Closes this process's MCP connections (stdio servers exit) at shutdown. */
  closeMcpClients(): Promise<void>;
  /** Fork a thread at a message (POST /api/threads/:id/fork). */
  readonly forks: ThreadForkService;
  /** Replay a root thread from its recorded model calls (POST/GET /api/threads/:id/replay). */
  readonly replays: ThreadReplayService;
  /** Two runs aligned message by message and child by child (GET /api/threads/diff). */
  readonly diffs: ThreadDiffService;
  /** Tool approvals: list a tree's or a project's, decide one (docs/runtime.md "Approvals"). */
  readonly approvals: ApprovalService;
  /** Accounts, roles, project keys, credentials and the audit log (docs/security.md). */
  readonly access: AccessService;
  /** Eval suites and runs (API.md "Evaluations"; docs/evals.md); its runner starts beside the scheduler. */
  readonly evals: EvalService;
}

type RuntimeGlobal = typeof globalThis & { __tandemRuntime?: Promise<Runtime> };

/** Code tools and hooks of this server, loaded once on first use. */
function extensionsLoader(): () => Promise<{ registry: ExtensionRegistry; hooks: HookRunner }> {
  let loaded: Promise<{ registry: ExtensionRegistry; hooks: HookRunner }> | undefined;
  return () => {
    loaded ??= getExtensions().then((registry) => ({
      registry,
      hooks: new HookRunner(registry, Number(process.env.TANDEM_HOOK_TIMEOUT_MS ?? DEFAULT_HOOK_TIMEOUT_MS)),
    }));
    return loaded;
  };
}

/** What a runtime may be given besides its database (defaults above). */
export interface RuntimeOptions {
  /** Bounds of the parked threads' caches (PARKED_CACHE_LIMITS). */
  parkedCacheLimits?: ParkedCacheLimits;
  /** Bounds of the caches of threads created here until their first run (SPAWNED_CACHE_LIMITS). */
  spawnedCacheLimits?: ParkedCacheLimits;
}

/**
 * The environment of a model call whose models name project credentials (`apiKeyCredential`):
 * process.env plus each named credential's value under its `credentialVariable` name, for this call
 * only. Undefined (process.env as it is) when no model names one.
 */
async function credentialEnv(
  access: AccessService,
  models: readonly ModelDefinition[],
  projectId: string | undefined,
): Promise<Record<string, string | undefined> | undefined> {
  const names = [
    ...new Set(models.flatMap((model) => (model.apiKeyCredential ? [model.apiKeyCredential] : []))),
  ];
  if (names.length === 0 || !projectId) return undefined;
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of names) {
    const value = await access.credentialValue(projectId, name);
    if (value !== undefined) env[credentialVariable(name)] = value;
  }
  return env;
}

// One function: the composition root wires every service to the ones it needs, in dependency order;
// split up, the order of construction would be spread over helpers that each see half of it.
export function createRuntime(database: Database, options: RuntimeOptions = {}): Runtime {
  const definitions = new DefinitionsCache(database.sql);
  const access = new AccessService(database.sql);
  const events = new EventHub(database.notifications, database.sql);
  const extensions = extensionsLoader();
  const subagentLimits = subagentLimitsFromEnv(process.env);
  const settings = schedulerSettingsFromEnv(process.env);
  const modelRetry = modelRetrySettingsFromEnv(process.env);
  // Metrics out (docs/observability.md): with no OTLP endpoint set this is `callModel` itself.
  const meter = metrics();
  const meteredCallModel = meter.meterModelCalls(callModel);
  let threads: ThreadService | undefined;
  const terminate = async (threadId: string) => {
    await threads?.terminate(threadId);
  };
  // Parked threads whose history this process keeps for their next run (bounded memory).
  const parkedCaches = new ParkedCaches<ThreadCache>(
    options.parkedCacheLimits ?? PARKED_CACHE_LIMITS,
    threadCacheBytes,
  );
  // Children spawned here, with the one message each starts with, and threads created here, with
  // none, for their first run here (most likely here: it starts as soon as the creation commits).
  const spawnedCaches = new ParkedCaches<ThreadCache>(
    options.spawnedCacheLimits ?? SPAWNED_CACHE_LIMITS,
    threadCacheBytes,
  );
  const parentWaker = new ParentWaker(
    (parentId) => wakeParent(database.sql, parentId),
    (parentId, error) =>
      console.error(
        `[tandem] waking thread ${parentId} failed (the poll will):`,
        error instanceof Error ? error.message : error,
      ),
  );
  const scheduler = new Scheduler(
    database,
    (leaseOwner) =>
      new StepRunner({
        database,
        definitions,
        // A model call is I/O: the step gives its slot up while it waits (TANDEM_CONCURRENCY bounds
        // steps doing work, not calls in flight; see runtime/scheduler/step-slots.ts). The call's
        // signal is its run's, the key the scheduler holds the step's slot under.
        callModel: async (name, models, request, options) => {
          const env = await credentialEnv(access, models, options.projectId);
          return awayFromStepSlot(request.abortSignal, () =>
            meteredCallModel(name, models, request, {
              ...options,
              ...(env ? { env } : {}),
              retryBudgetMs: modelRetry.budgetMs,
              breaker: modelRetry.breaker,
            }),
          );
        },
        leaseOwner,
        publishChunk: (chunk) => events.publishChunk(chunk),
        endMessage: (messageId) => events.endMessage(messageId),
        extensions,
        terminate,
        storeToolAttachments: (threadId, attachments) =>
          storeToolAttachments(database.sql, threadId, attachments),
        subagentLimits,
        parkedCaches,
        spawnedCaches,
        parentWaker,
        takeLocally: () => scheduler.takeLocally(),
      }),
    {
      concurrency: settings.concurrency,
      maxClaimed: settings.maxClaimed,
      leaseMs: settings.leaseMs,
      pollMs: settings.pollMs,
      ...(settings.localTakeRounds !== null ? { localTakeRounds: settings.localTakeRounds } : {}),
      drainMs: settings.drainMs,
      maxRunMs: settings.maxRunMs,
      maxQueuedMs: settings.maxQueuedMs,
      settle: () => parentWaker.idle(),
      // Beyond a lease and beyond the longest after_thread_created hook.
      lostWakeupGraceMs: Math.max(
        2 * settings.leaseMs,
        Number(process.env.TANDEM_HOOK_TIMEOUT_MS ?? DEFAULT_HOOK_TIMEOUT_MS) + 1_000,
      ),
    },
  );
  threads = new ThreadService(
    database,
    definitions,
    (threadId) => scheduler.abortLocally(threadId),
    {
      declared: async (agent, loaded) => {
        const { hooks } = await extensions();
        const prompt = loaded.index.prompts.get(agent.sideA.prompt)?.definition;
        return hooks.has("after_thread_created", declaredHookIds(prompt, agent));
      },
      run: async (threadId) => {
        const { hooks } = await extensions();
        const row = await findThread(database.sql, threadId);
        if (!row) return;
        const loaded = await definitions.load(row.project_id, row.project_version);
        const agent = loaded?.index.agents.get(row.agent_name)?.definition;
        if (!loaded || !agent) return;
        const ids = declaredHookIds(loaded.index.prompts.get(agent.sideA.prompt)?.definition, agent);
        const state = await loadThreadState({ db: database.sql, definitions, hooks, terminate }, threadId);
        if (state) await hooks.notify("after_thread_created", ids, state);
      },
    },
    (threadId, messages) =>
      spawnedCaches.park(threadId, {
        history: { version: messages.at(-1)?.seq ?? 0, messages },
        modelCalls: new Map(),
        requests: new Map(),
      }),
    () => scheduler.takeLocally(),
    parkedHere(parkedCaches),
  );
  // Scheduled effects (spec Effects): handlers get the thread's ThreadState with `execution` null,
  // and every message they inject or queue carries `metadata.scheduledEffect = { id, name }`.
  const effectRunner = new EffectRunner(
    {
      db: database.sql,
      notifications: database.notifications,
      effects: async () => (await extensions()).registry.effects,
      stateFor: async (threadId, effect) => {
        const { hooks } = await extensions();
        return loadThreadState({ db: database.sql, definitions, hooks, terminate }, threadId, {
          messageMetadata: { scheduledEffect: { id: effect.id, name: effect.name } },
        });
      },
    },
    effectSettingsFromEnv(process.env),
  );
  const load = new LoadService(database.sql, scheduler);
  // Live event streams: one subscription per tree however many clients read it.
  const watch = new LiveWatch({
    hub: events,
    db: database.sql,
    settings: () => watchSettingsFromEnv(process.env),
  });
  if (meter.enabled) {
    database.sql.observeCommitBatches((parts) => meter.commitBatch(parts));
    meter.observe({
      queue: async () => {
        const { threads: waiting } = await load.read();
        return { waiting: waiting.waiting, oldestWaitingMs: waiting.oldest_waiting_ms };
      },
      stepsInFlight: () => scheduler.inFlight,
      // Open SSE connections (LiveWatch shares one hub subscription per tree among them).
      eventStreamViewers: () => watch.stats().streams,
    });
  }
  return {
    ping: () => pingDatabase(database.sql),
    databaseInfo: () => ({ kind: database.config.kind, description: describeDatabase(database.config) }),
    closeDatabase: () => database.close(),
    projects: new ProjectService(
      database,
      async () => new Set((await extensions()).registry.mcp.serverIds()),
    ),
    threads,
    events,
    watch,
    scheduler,
    envRequests: new EnvRequestService(database.sql, definitions),
    activity: new ActivityService(database.sql, definitions),
    analytics: new AnalyticsService(database.sql),
    files: new ThreadFileService(database.sql),
    eventLog: new EventLogService(database.sql),
    load,
    endpoints: new ThreadEndpointService({
      db: database.sql,
      definitions,
      extensions,
      terminate,
      timeoutMs: endpointTimeoutMsFromEnv(process.env),
    }),
    effects: new EffectService(database.sql),
    effectRunner,
    mcpServers: async () => (await extensions()).registry.mcp.status(),
    closeMcpClients: async () => (await extensions()).registry.mcp.close(),
    mcpServer: new McpAgentServer({
      db: database.sql,
      definitions,
      threads,
      watchRoot: (rootId, onEvents) =>
        events.subscribe(rootId, { onEventsAvailable: onEvents, onChunk: () => {} }),
    }),
    forks: new ThreadForkService(database),
    replays: new ThreadReplayService(database, definitions),
    diffs: new ThreadDiffService(database.sql),
    approvals: new ApprovalService(database.sql),
    access,
    evals: new EvalService({
      sql: database.sql,
      definitions,
      threads,
      watchRoot: (rootId, onEvents) =>
        events.subscribe(rootId, { onEventsAvailable: onEvents, onChunk: () => {} }),
      runsHere: scheduler,
      callModel: (name, models, request) =>
        meteredCallModel(name, models, request, {
          retryBudgetMs: modelRetry.budgetMs,
          breaker: modelRetry.breaker,
        }),
      extensions,
      owner: scheduler.owner,
      ...(process.env.TANDEM_EVAL_LEASE_MS ? { leaseMs: Number(process.env.TANDEM_EVAL_LEASE_MS) } : {}),
    }),
  };
}

export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as RuntimeGlobal;
  holder.__tandemRuntime ??= processDatabase()
    .then(createRuntime)
    .catch((error: unknown) => {
      holder.__tandemRuntime = undefined;
      throw error;
    });
  return holder.__tandemRuntime;
}

export type { McpRemoteTool, McpServerStatus } from "./extensions/mcp-clients";
// What route handlers may use besides the Runtime object: edge helpers and the types of what the
// services answer (routes import nothing else from runtime/ but errors and security; biome.json).
export { availableProviders } from "./models/available-providers";
export {
  beginOidcSignIn,
  clearedFlowCookieHeader,
  finishOidcSignIn,
  flowCookieHeader,
  OIDC_FLOW_COOKIE,
  OidcError,
  openFlow,
  sealFlow,
} from "./security/oidc";
export { oidcCallbackUrl, oidcSettings } from "./security/oidc-settings";
export {
  currentPrincipal,
  type Principal,
  runAs,
  seesEverything,
} from "./security/request-context";
export { type Authentication, actorOf } from "./services/access-service";
export {
  type AttachmentInput,
  decodeBase64,
  fileNameProblem,
  MAX_ATTACHMENTS_PER_MESSAGE,
} from "./store/attachments";
export type { StoredEvent } from "./store/event-log";
export { InvalidPathError, normaliseThreadPath } from "./store/thread-paths";
