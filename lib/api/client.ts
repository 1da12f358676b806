// A small typed client for Tandem's HTTP API, used by the browser UI and usable from scripts.
import { z } from "zod";
import { type ProjectActivity, ProjectActivitySchema } from "@/lib/contracts/activity";
import {
  ApprovalDecidedSchema,
  type ApprovalDecisionSchema,
  ApprovalListSchema,
  type ApprovalView,
} from "@/lib/contracts/approval";
import { EffectCancelledSchema, EffectListSchema, type EffectView } from "@/lib/contracts/effect";
import type { CaseFromThreadSchema, RunRequestSchema } from "@/lib/contracts/evals";
import { type McpServerListing, McpServerListSchema } from "@/lib/contracts/mcp";
import {
  type CreateProjectBodySchema,
  DeletedProjectSchema,
  type ProjectDetail,
  ProjectDetailSchema,
  ProjectListSchema,
  type ProjectSummary,
  ProjectSummarySchema,
  type RenameProjectBodySchema,
  type SavedGraph,
  SavedGraphSchema,
  type SaveGraphBodySchema,
} from "@/lib/contracts/project";
import {
  LatestReplayBatchSchema,
  type ManyReplays,
  ManyReplaysSchema,
  type ReplayBatch,
  type ReplayManyRequestSchema,
  type ReplayRequestSchema,
  type ReplayStatus,
  ReplayStatusSchema,
  type StartedReplay,
  StartedReplaySchema,
} from "@/lib/contracts/replay";
import {
  ForkedThreadSchema,
  type ForkRequestSchema,
  ThreadDiffSchema,
  type ThreadDiffWire,
} from "@/lib/contracts/run-diff";
import type { RuntimeLoad } from "@/lib/contracts/runtime-load";
import {
  ApiErrorBodySchema,
  HealthSchema,
  ProviderListSchema,
  type ProviderStatus,
} from "@/lib/contracts/server";
import {
  type ThreadFileEntry,
  ThreadFileEntrySchema,
  ThreadFileListSchema,
} from "@/lib/contracts/thread-files";
import { type ThreadListControls, threadListRequestParams } from "@/lib/contracts/thread-list-query";
import { type ThreadLogs, ThreadLogsSchema } from "@/lib/contracts/thread-logs";
import {
  CreatedThreadSchema,
  type CreateThreadBodySchema,
  MessageCountSchema,
  type PostMessageBodySchema,
  QueuedMessageSchema,
  ThreadActionSchema,
  type ThreadList,
  ThreadListSchema,
} from "@/lib/contracts/thread-requests";
import {
  type RestoreVersionBodySchema,
  type VersionDetail,
  VersionDetailSchema,
  type VersionDiff,
  VersionDiffSchema,
  type VersionEntry,
  VersionListSchema,
} from "@/lib/contracts/version";
import {
  CaseAnswerSchema,
  type EvalCase,
  type EvalRun,
  type EvalSuite,
  type EvalSuiteSchema,
  RunAnswerSchema,
  type RunComparison,
  RunComparisonSchema,
  RunListSchema,
  SuiteAnswerSchema,
  type SuiteListEntry,
  SuiteListSchema,
} from "@/lib/evals/eval-shapes";

/**
 * A JSON request body as the route's lib/contracts schema takes it (`z.input`): the schema types the
 * body here and parses it on the server, so the two cannot drift. Sent as written (not parsed here).
 */
type BodyOf<Schema extends z.ZodType> = z.input<Schema>;

/** A request body checked against its contract: `body<typeof CreateThreadBodySchema>({ … })`. */
interface ContractBody {
  readonly json: unknown;
}

function body<Schema extends z.ZodType>(json: BodyOf<Schema>): ContractBody {
  return { json };
}

/** `/api/threads/:id/fs/<path>` with every path segment encoded (the file's download address). */
export function threadFileUrl(threadId: string, path: string): string {
  const segments = path
    .split("/")
    .filter((segment) => segment.length > 0)
    .map(encodeURIComponent);
  return `/api/threads/${encodeURIComponent(threadId)}/fs/${segments.join("/")}`;
}

/** Directories deeper than this are not walked by `files.listAll`. */
const MAX_FILE_DEPTH = 8;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? "";
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  function request<Schema extends z.ZodType>(
    method: string,
    path: string,
    schema: Schema,
    body?: ContractBody,
  ): Promise<z.output<Schema>> {
    return send(
      method,
      path,
      schema,
      body === undefined ? undefined : { contentType: "application/json", data: JSON.stringify(body.json) },
    );
  }

  async function send<Schema extends z.ZodType>(
    method: string,
    path: string,
    schema: Schema,
    body?: { contentType: string; data: BodyInit },
    extraHeaders: Record<string, string> = {},
  ): Promise<z.output<Schema>> {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: body === undefined ? extraHeaders : { "content-type": body.contentType, ...extraHeaders },
        body: body?.data,
      });
    } catch (error) {
      throw new ApiError(
        0,
        "network_error",
        `Could not reach the Tandem server (${(error as Error).message}).`,
        null,
      );
    }
    const payload: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const parsed = ApiErrorBodySchema.safeParse(payload);
      throw new ApiError(
        response.status,
        parsed.success ? (parsed.data.code ?? "error") : "error",
        parsed.success ? parsed.data.error : `The server answered ${response.status}.`,
        payload,
      );
    }
    return schema.parse(payload);
  }

  async function listDirectory(threadId: string, directory = "/"): Promise<ThreadFileEntry[]> {
    const path = `/api/threads/${encodeURIComponent(threadId)}/fs?path=${encodeURIComponent(directory)}`;
    return (await request("GET", path, ThreadFileListSchema)).entries;
  }

  return {
    projects: {
      /** What the project's threads are doing now (the studio's run overlay polls it). */
      activity: (id: string): Promise<ProjectActivity> =>
        request("GET", `/api/projects/${encodeURIComponent(id)}/activity`, ProjectActivitySchema),
      list: async (): Promise<ProjectSummary[]> =>
        (await request("GET", "/api/projects", ProjectListSchema)).projects,
      create: (name: string): Promise<ProjectSummary> =>
        request(
          "POST",
          "/api/projects",
          ProjectSummarySchema,
          body<typeof CreateProjectBodySchema>({ name }),
        ),
      get: (id: string): Promise<ProjectDetail> =>
        request("GET", `/api/projects/${encodeURIComponent(id)}`, ProjectDetailSchema),
      rename: (id: string, name: string): Promise<ProjectSummary> =>
        request(
          "PATCH",
          `/api/projects/${encodeURIComponent(id)}`,
          ProjectSummarySchema,
          body<typeof RenameProjectBodySchema>({ name }),
        ),
      /** Saves the canvas as a new version; rejects with status 409 when `baseVersion` is stale. */
      saveGraph: (
        id: string,
        graph: BodyOf<typeof SaveGraphBodySchema>["graph"],
        baseVersion: number | null,
      ): Promise<SavedGraph> =>
        request(
          "PUT",
          `/api/projects/${encodeURIComponent(id)}/graph`,
          SavedGraphSchema,
          body<typeof SaveGraphBodySchema>({ graph, base_version: baseVersion ?? undefined }),
        ),
      /** Replaces the definitions from TypeScript, a zip or a JSON bundle; 422 carries diagnostics. */
      importDefinitions: (id: string, data: BodyInit, contentType: string): Promise<SavedGraph> =>
        send("POST", `/api/projects/${encodeURIComponent(id)}/import`, SavedGraphSchema, {
          contentType,
          data,
        }),
      remove: async (id: string): Promise<void> => {
        await request("DELETE", `/api/projects/${encodeURIComponent(id)}`, DeletedProjectSchema);
      },
    },
    versions: {
      /** Every version of a project, newest first. */
      list: async (projectId: string): Promise<VersionEntry[]> =>
        (await request("GET", `/api/projects/${encodeURIComponent(projectId)}/versions`, VersionListSchema))
          .versions,
      /** One stored version (its canvas document), e.g. the common base of a three-way merge. */
      get: (projectId: string, version: number): Promise<VersionDetail> =>
        request(
          "GET",
          `/api/projects/${encodeURIComponent(projectId)}/versions/${version}`,
          VersionDetailSchema,
        ),
      /** What `version` added, removed and changed compared with `against` (default: the previous one). */
      diff: (projectId: string, version: number, against?: number): Promise<VersionDiff> =>
        request(
          "GET",
          `/api/projects/${encodeURIComponent(projectId)}/versions/${version}/diff${against === undefined ? "" : `?against=${against}`}`,
          VersionDiffSchema,
        ),
      /** Saves `version` again as a new version; rejects with status 409 when `baseVersion` is stale. */
      restore: (projectId: string, version: number, baseVersion?: number): Promise<SavedGraph> =>
        request(
          "POST",
          `/api/projects/${encodeURIComponent(projectId)}/versions/${version}/restore`,
          SavedGraphSchema,
          body<typeof RestoreVersionBodySchema>(
            baseVersion === undefined ? {} : { base_version: baseVersion },
          ),
        ),
    },
    runtime: {
      /** The runtime's load (GET /api/health `load`); null when the server does not say (no token). */
      load: async (): Promise<RuntimeLoad | null> =>
        (await request("GET", "/api/health", HealthSchema)).load ?? null,
    },
    mcp: {
      /** The MCP servers this server configures and the tools each lists (GET /api/mcp/tools). */
      servers: async (): Promise<McpServerListing[]> =>
        (await request("GET", "/api/mcp/tools", McpServerListSchema)).servers,
    },
    providers: {
      /** Which model providers this server can use (env variable names, never values). */
      list: async (): Promise<ProviderStatus[]> =>
        (await request("GET", "/api/providers", ProviderListSchema)).providers,
    },
    threads: {
      /** One page of a project's threads, filtered by the threads list's controls, newest first. */
      list: (
        projectId: string,
        controls: ThreadListControls,
        page: { limit: number; offset: number },
      ): Promise<ThreadList> =>
        request(
          "GET",
          `/api/threads?${threadListRequestParams(projectId, controls, page).toString()}`,
          ThreadListSchema,
        ),
      create: (input: { projectId: string; agentId: string; message?: string }) =>
        request(
          "POST",
          "/api/threads",
          CreatedThreadSchema,
          body<typeof CreateThreadBodySchema>({
            project_id: input.projectId,
            agent_id: input.agentId,
            ...(input.message ? { message: input.message } : {}),
          }),
        ),
      /** Queues a message; `attachments` are paths of files already in the thread's filesystem. */
      postMessage: (threadId: string, content: string, attachments: readonly string[] = []) =>
        request(
          "POST",
          `/api/threads/${encodeURIComponent(threadId)}/messages`,
          QueuedMessageSchema,
          body<typeof PostMessageBodySchema>({
            content,
            ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
          }),
        ),
      stop: (threadId: string) =>
        request("POST", `/api/threads/${encodeURIComponent(threadId)}/stop`, ThreadActionSchema),
      terminate: (threadId: string) =>
        request("POST", `/api/threads/${encodeURIComponent(threadId)}/terminate`, ThreadActionSchema),
      /** Model calls (full request, response, usage, latency) and tool calls with timings. */
      logs: (threadId: string): Promise<ThreadLogs> =>
        request("GET", `/api/threads/${encodeURIComponent(threadId)}/logs`, ThreadLogsSchema),
      /** A new thread with this one's history up to a message (`replace`: before it, `content` instead). */
      fork: (threadId: string, input: { atMessageId: string; content?: string; replace?: boolean }) =>
        request(
          "POST",
          `/api/threads/${encodeURIComponent(threadId)}/fork`,
          ForkedThreadSchema,
          body<typeof ForkRequestSchema>({
            at_message_id: input.atMessageId,
            ...(input.content !== undefined ? { content: input.content } : {}),
            ...(input.replace ? { replace: true } : {}),
          }),
        ),
      /** A new root thread re-running this one's inputs, answered from its recorded model calls. */
      replay: (threadId: string, fromVersion: "same" | "latest"): Promise<StartedReplay> =>
        request(
          "POST",
          `/api/threads/${encodeURIComponent(threadId)}/replay`,
          StartedReplaySchema,
          body<typeof ReplayRequestSchema>({ from_version: fromVersion }),
        ),
      /** Replays several runs of a project (the given ones, or its latest finished root runs). */
      replayMany: (
        projectId: string,
        input: { limit?: number; fromVersion: "same" | "latest"; threadIds?: string[] },
      ): Promise<ManyReplays> =>
        request(
          "POST",
          `/api/projects/${encodeURIComponent(projectId)}/replays`,
          ManyReplaysSchema,
          body<typeof ReplayManyRequestSchema>({
            from_version: input.fromVersion,
            ...(input.limit !== undefined ? { limit: input.limit } : {}),
            ...(input.threadIds ? { thread_ids: input.threadIds } : {}),
          }),
        ),
      /** The project's latest "Replay runs" batch with each replay's progress; null before the first. */
      latestReplayBatch: async (projectId: string): Promise<ReplayBatch | null> =>
        (
          await request(
            "GET",
            `/api/projects/${encodeURIComponent(projectId)}/replays`,
            LatestReplayBatchSchema,
          )
        ).batch,
      /** A replay's progress and divergences; null when the thread is not a replay. */
      replayStatus: async (threadId: string): Promise<ReplayStatus | null> => {
        try {
          return await request(
            "GET",
            `/api/threads/${encodeURIComponent(threadId)}/replay`,
            ReplayStatusSchema,
          );
        } catch (caught) {
          if (caught instanceof ApiError && caught.code === "replay_not_found") return null;
          throw caught;
        }
      },
      /** How many messages a thread has (its top-level, non-silent ones: what its transcript lists). */
      messageCount: async (threadId: string): Promise<number> =>
        (
          await request(
            "GET",
            `/api/threads/${encodeURIComponent(threadId)}/messages?limit=1`,
            MessageCountSchema,
          )
        ).total,
      /** Two runs aligned message by message, children by spawn order. */
      diff: (a: string, b: string): Promise<ThreadDiffWire> =>
        request(
          "GET",
          `/api/threads/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`,
          ThreadDiffSchema,
        ),
    },
    files: {
      /** One directory of a thread's filesystem (directories stand for the files below them). */
      list: listDirectory,
      /**
       * Writes raw bytes at `path` (413 above the server's upload limit). With `createOnly` it never
       * replaces anything: a taken path rejects with status 412 and code `file_exists`.
       */
      upload: (
        threadId: string,
        path: string,
        data: Blob,
        options: { createOnly?: boolean } = {},
      ): Promise<ThreadFileEntry> =>
        send(
          "PUT",
          threadFileUrl(threadId, path),
          ThreadFileEntrySchema,
          { contentType: data.type || "application/octet-stream", data },
          options.createOnly ? { "if-none-match": "*" } : {},
        ),
      remove: async (threadId: string, path: string): Promise<void> => {
        await send("DELETE", threadFileUrl(threadId, path), ApiErrorBodySchema.partial());
      },
      /** Every file of a thread's filesystem, walking directories, sorted by path. */
      listAll: async (threadId: string): Promise<ThreadFileEntry[]> => {
        const files: ThreadFileEntry[] = [];
        const walk = async (directory: string, depth: number): Promise<void> => {
          for (const entry of await listDirectory(threadId, directory)) {
            if (!entry.isDirectory) files.push(entry);
            else if (depth < MAX_FILE_DEPTH) await walk(entry.path, depth + 1);
          }
        };
        await walk("/", 0);
        return files.sort((a, b) => a.path.localeCompare(b.path));
      },
    },
    evals: {
      /** The project's eval suites, each with its number of cases and its last run. */
      list: async (projectId: string): Promise<SuiteListEntry[]> =>
        (await request("GET", `/api/projects/${encodeURIComponent(projectId)}/evals`, SuiteListSchema))
          .suites,
      get: async (projectId: string, suiteId: string): Promise<EvalSuite> =>
        (await request("GET", evalSuitePath(projectId, suiteId), SuiteAnswerSchema)).suite,
      /**
       * A new suite. Suites go as the editor holds them (`EvalSuiteSchema`, lenient): the server
       * checks them with `SuiteSchema` of lib/contracts/evals.ts and names each wrong field.
       */
      create: async (projectId: string, suite: EvalSuite): Promise<EvalSuite> =>
        (
          await request(
            "POST",
            `/api/projects/${encodeURIComponent(projectId)}/evals`,
            SuiteAnswerSchema,
            body<typeof EvalSuiteSchema>(suite),
          )
        ).suite,
      /** Replaces the suite (its cases keep their ids when they are sent with them). */
      save: async (projectId: string, suiteId: string, suite: EvalSuite): Promise<EvalSuite> =>
        (
          await request(
            "PUT",
            evalSuitePath(projectId, suiteId),
            SuiteAnswerSchema,
            body<typeof EvalSuiteSchema>(suite),
          )
        ).suite,
      remove: async (projectId: string, suiteId: string): Promise<void> => {
        await request("DELETE", evalSuitePath(projectId, suiteId), z.unknown());
      },
      /** A new case of the suite from a thread's user turns. */
      caseFromThread: async (projectId: string, suiteId: string, threadId: string): Promise<EvalCase> =>
        (
          await request(
            "POST",
            `${evalSuitePath(projectId, suiteId)}/cases/from-thread`,
            CaseAnswerSchema,
            body<typeof CaseFromThreadSchema>({ thread_id: threadId }),
          )
        ).case,
      /** Starts a run (the latest saved version unless `version` is given). */
      run: async (
        projectId: string,
        suiteId: string,
        input: { version?: number; repetitions?: number },
      ): Promise<EvalRun> =>
        (
          await request(
            "POST",
            `${evalSuitePath(projectId, suiteId)}/runs`,
            RunAnswerSchema,
            body<typeof RunRequestSchema>(input),
          )
        ).run,
      /** The suite's runs, newest first, without their results. */
      runs: async (projectId: string, suiteId: string): Promise<EvalRun[]> =>
        (await request("GET", `${evalSuitePath(projectId, suiteId)}/runs`, RunListSchema)).runs,
      getRun: async (runId: string): Promise<EvalRun> =>
        (await request("GET", `/api/eval-runs/${encodeURIComponent(runId)}`, RunAnswerSchema)).run,
      cancelRun: async (runId: string): Promise<EvalRun> =>
        (await request("POST", `/api/eval-runs/${encodeURIComponent(runId)}/cancel`, RunAnswerSchema)).run,
      compare: (a: string, b: string): Promise<RunComparison> =>
        request(
          "GET",
          `/api/eval-runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`,
          RunComparisonSchema,
        ),
    },
    effects: {
      /** The thread's scheduled effects (every status), soonest first. */
      list: async (threadId: string): Promise<EffectView[]> =>
        (await request("GET", `/api/threads/${encodeURIComponent(threadId)}/effects`, EffectListSchema))
          .effects,
      /** Cancels an effect that has not started (409 once it runs or ran). */
      cancel: async (threadId: string, effectId: string): Promise<void> => {
        await request(
          "DELETE",
          `/api/threads/${encodeURIComponent(threadId)}/effects/${encodeURIComponent(effectId)}`,
          EffectCancelledSchema,
        );
      },
    },
    approvals: {
      /** Pending approvals of the thread and its subtree (or a project's), oldest first. */
      pendingOfThread: async (threadId: string): Promise<ApprovalView[]> =>
        (
          await request(
            "GET",
            `/api/threads/${encodeURIComponent(threadId)}/approvals?state=pending`,
            ApprovalListSchema,
          )
        ).approvals,
      pendingOfProject: async (projectId: string): Promise<ApprovalView[]> =>
        (
          await request(
            "GET",
            `/api/approvals?project_id=${encodeURIComponent(projectId)}&state=pending`,
            ApprovalListSchema,
          )
        ).approvals,
      /** Approve (optionally with edited arguments) or deny with a reason; 409 once decided. */
      decide: async (
        approvalId: string,
        decision: BodyOf<typeof ApprovalDecisionSchema>,
      ): Promise<ApprovalView> =>
        (
          await request(
            "POST",
            `/api/approvals/${encodeURIComponent(approvalId)}`,
            ApprovalDecidedSchema,
            body<typeof ApprovalDecisionSchema>(decision),
          )
        ).approval,
    },
  };
}

const evalSuitePath = (projectId: string, suiteId: string) =>
  `/api/projects/${encodeURIComponent(projectId)}/evals/${encodeURIComponent(suiteId)}`;

export type ApiClient = ReturnType<typeof createApiClient>;
