// Projects and their immutable versions. Every save makes a new version (graph + compiled bundle +
// diagnostics); a save that names a stale base version is refused, never silently merged.
import "server-only";
import { randomUUID } from "node:crypto";
import type { ProjectSummary as ProjectSummaryWire } from "@/lib/contracts/project";
import type { Database } from "@/lib/db/database";
import type { Prisma } from "@/lib/db/generated/prisma/client";
import {
  compileGraph,
  decompileBundleLaidOut,
  deriveEdges,
  emptyGraph,
  type Graph,
  type GraphDiagnostic,
  GraphSchema,
} from "@/lib/graph";
import { type Bundle, parseBundle } from "@/lib/standard";
import { type BundleDiff, diffBundles } from "@/lib/versions/bundle-diff";
import { ConflictError, InvalidDefinitionsError, InvalidInputError, NotFoundError } from "../errors";
import { NO_ACTIVITY, projectGlances } from "../store/project-glance";

/** The wire summary (lib/contracts/project.ts); the server always sets `created_at`. */
export type ProjectSummary = ProjectSummaryWire & { created_at: number };

export interface ProjectDetail extends ProjectSummary {
  graph: Graph & { edges: ReturnType<typeof deriveEdges> };
  definitions: Bundle;
  diagnostics: GraphDiagnostic[];
}

export interface SavedVersion {
  version: number;
  graph: ProjectDetail["graph"];
  definitions: Bundle;
  diagnostics: GraphDiagnostic[];
}

export interface VersionCounts {
  agents: number;
  prompts: number;
  models: number;
  tools: number;
  errors: number;
  warnings: number;
}

export interface VersionListEntry {
  version: number;
  created_at: number;
  summary: VersionCounts;
}

export interface VersionDetail extends SavedVersion {
  created_at: number;
}

const toMicroseconds = (date: Date) => date.getTime() * 1000;

export function normaliseProjectName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new InvalidInputError("A project needs a name.", { field: "name" });
  if (trimmed.length > 200)
    throw new InvalidInputError("Project names are at most 200 characters.", { field: "name" });
  return trimmed;
}

function withEdges(graph: Graph): ProjectDetail["graph"] {
  return { ...graph, edges: deriveEdges(graph) };
}

/** Parses a stored graph; a graph that no longer parses is shown empty rather than crashing. */
function storedGraph(value: unknown): Graph {
  const parsed = GraphSchema.safeParse(value);
  return parsed.success ? parsed.data : emptyGraph();
}

/**
 * Definitions → version content; invalid definitions are refused with diagnostics (422). A canvas
 * made from definitions alone is laid out by ELK; nodes kept from `previous` stay where they were.
 */
async function contentFromDefinitions(input: unknown, previous?: Graph) {
  const parsed = parseBundle(input);
  if (!parsed.ok || parsed.diagnostics.some((d) => d.severity === "error")) {
    throw new InvalidDefinitionsError(parsed.diagnostics);
  }
  const graph = await decompileBundleLaidOut(parsed.bundle, previous);
  // Compile the laid-out graph so diagnostics carry node ids.
  const compiled = compileGraph(graph);
  return { graph, definitions: compiled.bundle, diagnostics: compiled.diagnostics };
}

/** Graph → version content; a graph with problems is still saved (nothing the user drew is lost). */
function contentFromGraph(graph: Graph) {
  const compiled = compileGraph(graph);
  return { graph, definitions: compiled.bundle, diagnostics: compiled.diagnostics };
}

/**
 * Tools naming an MCP server this server does not configure (extensions/mcp.json): an error on the
 * tool's node, since a definition can only use the servers the operator set up.
 */
export function unknownMcpServerDiagnostics(
  graph: Graph,
  configured: ReadonlySet<string>,
): GraphDiagnostic[] {
  const diagnostics: GraphDiagnostic[] = [];
  let index = 0;
  for (const node of graph.nodes) {
    if (node.type !== "tool") continue;
    const data = (node.data.definition ?? {}) as { kind?: unknown; server?: unknown; name?: unknown };
    if (data.kind === "mcp" && typeof data.server === "string" && !configured.has(data.server)) {
      const known = [...configured].sort();
      diagnostics.push({
        severity: "error",
        code: "unknown_mcp_server",
        path: `tools[${index}].server`,
        ...(typeof data.name === "string" ? { entity: { kind: "tool" as const, name: data.name } } : {}),
        message: `MCP server "${data.server}" is not configured on this server${
          known.length > 0 ? ` (configured: ${known.join(", ")})` : " (extensions/mcp.json lists none)"
        }.`,
        node_id: node.id,
      });
    }
    index++;
  }
  return diagnostics;
}

type VersionContent = { graph: Graph; definitions: Bundle; diagnostics: GraphDiagnostic[] };

export class ProjectService {
  constructor(
    private readonly database: Database,
    /** The MCP server ids this server configures; tools naming others get a diagnostic. */
    private readonly mcpServerIds: () => Promise<ReadonlySet<string>> = async () => new Set(),
  ) {}

  /** Adds the checks only the server can make (which MCP servers exist here) to compiled content. */
  private async checked(content: VersionContent | Promise<VersionContent>): Promise<VersionContent> {
    const resolved = await content;
    const extra = unknownMcpServerDiagnostics(resolved.graph, await this.mcpServerIds());
    return extra.length === 0 ? resolved : { ...resolved, diagnostics: [...resolved.diagnostics, ...extra] };
  }

  private get prisma() {
    return this.database.prisma;
  }

  /** Every project, the latest changed first, each with its runs and pending approvals at a glance. */
  async list(): Promise<ProjectSummary[]> {
    const [projects, glances] = await Promise.all([
      this.prisma.project.findMany({ orderBy: [{ updatedAt: "desc" }, { id: "asc" }] }),
      projectGlances(this.database.sql),
    ]);
    return projects.map((project) => ({
      id: project.id,
      name: project.name,
      version: project.currentVersion,
      created_at: toMicroseconds(project.createdAt),
      updated_at: toMicroseconds(project.updatedAt),
      activity: glances.get(project.id) ?? NO_ACTIVITY,
    }));
  }

  async create(input: { name: string; definitions?: unknown; graph?: Graph }): Promise<ProjectSummary> {
    const name = normaliseProjectName(input.name);
    const content = await this.checked(
      input.definitions !== undefined
        ? contentFromDefinitions(input.definitions, input.graph)
        : contentFromGraph(input.graph ?? emptyGraph()),
    );
    const id = randomUUID();
    const project = await this.prisma.project.create({
      data: {
        id,
        name,
        currentVersion: 1,
        versions: { create: { id: randomUUID(), version: 1, ...asJson(content) } },
      },
    });
    return {
      id,
      name,
      version: 1,
      created_at: toMicroseconds(project.createdAt),
      updated_at: toMicroseconds(project.updatedAt),
    };
  }

  async get(id: string): Promise<ProjectDetail> {
    const project = await this.findProject(id);
    const version = await this.prisma.projectVersion.findUniqueOrThrow({
      where: { projectId_version: { projectId: id, version: project.currentVersion } },
    });
    return {
      id: project.id,
      name: project.name,
      version: project.currentVersion,
      created_at: toMicroseconds(project.createdAt),
      updated_at: toMicroseconds(project.updatedAt),
      graph: withEdges(storedGraph(version.graph)),
      definitions: version.definitions as unknown as Bundle,
      diagnostics: version.diagnostics as unknown as GraphDiagnostic[],
    };
  }

  async rename(id: string, name: string): Promise<ProjectSummary> {
    await this.findProject(id);
    const project = await this.prisma.project.update({
      where: { id },
      data: { name: normaliseProjectName(name), updatedAt: new Date() },
    });
    return {
      id,
      name: project.name,
      version: project.currentVersion,
      created_at: toMicroseconds(project.createdAt),
      updated_at: toMicroseconds(project.updatedAt),
    };
  }

  async delete(id: string): Promise<void> {
    await this.findProject(id);
    await this.prisma.project.delete({ where: { id } });
  }

  async saveGraph(id: string, graph: Graph, baseVersion?: number): Promise<SavedVersion> {
    return this.saveVersion(id, baseVersion, () => this.checked(contentFromGraph(graph)));
  }

  async saveDefinitions(id: string, definitions: unknown, baseVersion?: number): Promise<SavedVersion> {
    const current = await this.get(id);
    return this.saveVersion(id, baseVersion, () =>
      this.checked(contentFromDefinitions(definitions, current.graph)),
    );
  }

  private async saveVersion(
    id: string,
    baseVersion: number | undefined,
    makeContent: () =>
      | Promise<{ graph: Graph; definitions: Bundle; diagnostics: GraphDiagnostic[] }>
      | { graph: Graph; definitions: Bundle; diagnostics: GraphDiagnostic[] },
  ): Promise<SavedVersion> {
    await this.findProject(id);
    const content = await makeContent();
    const version = await this.prisma.$transaction(async (tx) => {
      // The row update serialises concurrent saves; the base check then sees the true predecessor.
      const project = await tx.project.update({
        where: { id },
        data: { currentVersion: { increment: 1 }, updatedAt: new Date() },
      });
      const previous = project.currentVersion - 1;
      if (baseVersion !== undefined && baseVersion !== previous) {
        throw new ConflictError(
          `This project was saved by someone else (version ${previous}) after the version you edited (${baseVersion}). ` +
            "Reload it to get the latest version; your changes were not saved.",
          { current_version: previous, base_version: baseVersion },
          "stale_base_version",
        );
      }
      await tx.projectVersion.create({
        data: { id: randomUUID(), projectId: id, version: project.currentVersion, ...asJson(content) },
      });
      return project.currentVersion;
    });
    return {
      version,
      graph: withEdges(content.graph),
      definitions: content.definitions,
      diagnostics: content.diagnostics,
    };
  }

  /** Every version of the project, newest first, with counts of definitions and problems. */
  async listVersions(id: string): Promise<VersionListEntry[]> {
    await this.findProject(id);
    const versions = await this.prisma.projectVersion.findMany({
      where: { projectId: id },
      orderBy: { version: "desc" },
    });
    return versions.map((stored) => ({
      version: stored.version,
      created_at: toMicroseconds(stored.createdAt),
      summary: countVersion(
        stored.definitions as unknown as Bundle,
        stored.diagnostics as unknown as GraphDiagnostic[],
      ),
    }));
  }

  async getVersion(id: string, version: number): Promise<VersionDetail> {
    const stored = await this.findVersion(id, version);
    return {
      version: stored.version,
      graph: withEdges(storedGraph(stored.graph)),
      definitions: stored.definitions as unknown as Bundle,
      diagnostics: stored.diagnostics as unknown as GraphDiagnostic[],
      created_at: toMicroseconds(stored.createdAt),
    };
  }

  /** What `version` added, removed and changed compared with `against`. */
  async diffVersions(id: string, version: number, against: number): Promise<BundleDiff> {
    const [next, previous] = await Promise.all([this.getVersion(id, version), this.getVersion(id, against)]);
    return diffBundles(previous.definitions, next.definitions);
  }

  /** Saves an old version's graph as a new version; history is never rewritten. */
  async restoreVersion(id: string, version: number, baseVersion?: number): Promise<SavedVersion> {
    const restored = await this.findVersion(id, version);
    return this.saveGraph(id, storedGraph(restored.graph), baseVersion);
  }

  private async findVersion(id: string, version: number) {
    await this.findProject(id);
    const stored = await this.prisma.projectVersion.findUnique({
      where: { projectId_version: { projectId: id, version } },
    });
    if (!stored) throw new NotFoundError("Version", String(version));
    return stored;
  }

  private async findProject(id: string) {
    const project = isUuid(id) ? await this.prisma.project.findUnique({ where: { id } }) : null;
    if (!project) throw new NotFoundError("Project", id);
    return project;
  }
}

function countVersion(
  definitions: Partial<Bundle> | null,
  diagnostics: GraphDiagnostic[] | null,
): VersionCounts {
  const problems = Array.isArray(diagnostics) ? diagnostics : [];
  return {
    agents: definitions?.agents?.length ?? 0,
    prompts: definitions?.prompts?.length ?? 0,
    models: definitions?.models?.length ?? 0,
    tools: definitions?.tools?.length ?? 0,
    errors: problems.filter((diagnostic) => diagnostic.severity === "error").length,
    warnings: problems.filter((diagnostic) => diagnostic.severity === "warning").length,
  };
}

function asJson(content: { graph: Graph; definitions: Bundle; diagnostics: GraphDiagnostic[] }) {
  return {
    graph: content.graph as unknown as Prisma.InputJsonValue,
    definitions: content.definitions as unknown as Prisma.InputJsonValue,
    diagnostics: content.diagnostics as unknown as Prisma.InputJsonValue,
  };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
