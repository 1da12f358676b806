// What a project's threads are doing right now, for the studio's run overlay
// (`GET /api/projects/:id/activity`): thread counts by agent and status, and the prompt each running
// thread is on — its agent's current side's prompt, read from the thread's pinned version.
import "server-only";
import { type AgentActivity, emptyStatusCounts, type ProjectActivity } from "@/lib/contracts/activity";
import type { SqlExecutor } from "@/lib/db/sql-client";
import { NotFoundError } from "../errors";
import type { DefinitionsCache } from "../store/definitions";
import { threadActivityRows } from "../store/project-activity";
import { projectExists } from "../store/project-versions";
import { nowMicroseconds, THREAD_STATUSES, type ThreadStatus } from "../store/thread-row";
import { isUuid } from "./project-service";

export class ActivityService {
  constructor(
    private readonly db: SqlExecutor,
    private readonly definitions: DefinitionsCache,
  ) {}

  async ofProject(projectId: string): Promise<ProjectActivity> {
    if (!isUuid(projectId) || !(await projectExists(this.db, projectId)))
      throw new NotFoundError("Project", projectId);
    const rows = await threadActivityRows(this.db, projectId);

    const agents = new Map<string, AgentActivity>();
    const agentOf = (name: string): AgentActivity => {
      let entry = agents.get(name);
      if (!entry) {
        entry = { agent_id: name, counts: emptyStatusCounts(), active_prompts: [] };
        agents.set(name, entry);
      }
      return entry;
    };
    for (const row of rows) {
      if ((THREAD_STATUSES as readonly string[]).includes(row.status))
        agentOf(row.agent_name).counts[row.status as ThreadStatus] += row.n;
      if (row.status !== "running" || row.project_version === null) continue;
      const prompt = await this.promptOf(projectId, row.project_version, row.agent_name, row.side);
      if (!prompt) continue;
      const prompts = agentOf(row.agent_name).active_prompts;
      const existing = prompts.find((entry) => entry.prompt === prompt);
      if (existing) existing.running += row.n;
      else prompts.push({ prompt, running: row.n });
    }
    return {
      project_id: projectId,
      agents: [...agents.values()].sort((left, right) => left.agent_id.localeCompare(right.agent_id)),
      at: nowMicroseconds(),
    };
  }

  /** The prompt of `side` of the agent as defined in that version (versions are cached, immutable). */
  private async promptOf(
    projectId: string,
    version: number,
    agentName: string,
    side: string | null,
  ): Promise<string | null> {
    const agent = (await this.definitions.load(projectId, version))?.index.agents.get(agentName)?.definition;
    if (!agent) return null;
    return (side === "b" ? agent.sideB?.prompt : agent.sideA.prompt) ?? null;
  }
}
