// The definitions a new root thread runs with: a project version that exists, has the agent, and
// has no definition error (a version with errors cannot run: 409 `definitions_have_errors`). Shared by
// ThreadService.create and ThreadReplayService.replay.
import "server-only";
import type { AgentDefinition } from "@/lib/standard";
import { ConflictError, NotFoundError } from "../errors";
import type { DefinitionsCache, LoadedDefinitions } from "../store/definitions";

export async function runnableVersion(
  definitions: DefinitionsCache,
  projectId: string,
  version: number,
  agentName: string,
): Promise<{ definitions: LoadedDefinitions; agent: AgentDefinition }> {
  const loaded = await definitions.load(projectId, version);
  const agent = loaded?.index.agents.get(agentName)?.definition;
  if (!loaded || !agent) throw new NotFoundError("Agent", agentName);
  const errors = loaded.errors ?? [];
  if (errors.length > 0) {
    throw new ConflictError(
      `Version ${version} of this project has ${errors.length} definition error(s), so it cannot run. First: ${errors[0]!.path}: ${errors[0]!.message}`,
      { diagnostics: errors },
      "definitions_have_errors",
    );
  }
  return { definitions: loaded, agent };
}
