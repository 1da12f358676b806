// A project's current version: its runs, its definitions at a glance and the problems found in them.
import Link from "next/link";
import { notFound } from "next/navigation";
import { ProjectIdProvider } from "@/components/access/ProjectIdContext";
import { DefinitionsSummary } from "@/components/projects/DefinitionsSummary";
import { ImportDefinitions } from "@/components/projects/ImportDefinitions";
import { ProblemsList } from "@/components/projects/ProblemsList";
import { VersionsPanel } from "@/components/projects/VersionsPanel";
import { agentInfoFromDefinitions } from "@/components/threads/agent-info";
import { ReplayRunsPanel } from "@/components/threads/ReplayRunsPanel";
import { ThreadsPanel } from "@/components/threads/ThreadsPanel";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { buttonClasses } from "@/components/ui/Button";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

export default async function ProjectPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) {
    if (typeof value === "string") query.set(name, value);
  }
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  const agents = agentInfoFromDefinitions(project.definitions);
  return (
    <AppFrame crumbs={[{ label: project.name }]} sections={projectSections(project.id, "overview")}>
      {/* The role-aware controls below ask the signed-in user's role in this project. */}
      <ProjectIdProvider projectId={project.id}>
        <div className="mx-auto flex max-w-5xl flex-col gap-6 px-6 py-8">
          <div className="flex items-center gap-4">
            <h1 className="min-w-0 flex-1 text-xl font-semibold break-words">{project.name}</h1>
            <span className="shrink-0 text-sm text-muted">version {project.version}</span>
            <Link className={`shrink-0 ${buttonClasses("primary")}`} href={`/projects/${project.id}/studio`}>
              Open studio
            </Link>
          </div>
          <ThreadsPanel
            projectId={project.id}
            chatAgents={Object.entries(agents)
              .filter(([, agent]) => agent.type === "ai_human")
              .map(([name]) => name)}
            agents={Object.keys(agents).sort()}
            initialQuery={query.toString()}
          />
          <ReplayRunsPanel projectId={project.id} currentVersion={project.version} />
          <DefinitionsSummary definitions={project.definitions} />
          <ProblemsList diagnostics={project.diagnostics} />
          <ImportDefinitions projectId={project.id} />
          <VersionsPanel projectId={project.id} currentVersion={project.version} />
          <p className="text-xs text-muted">
            JSON:{" "}
            <Link className="underline" href={`/api/projects/${project.id}`}>
              /api/projects/{project.id}
            </Link>
          </p>
        </div>
      </ProjectIdProvider>
    </AppFrame>
  );
}
