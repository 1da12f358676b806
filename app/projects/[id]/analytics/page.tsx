// A project's dashboard (docs/observability.md "Dashboard"): runs, model calls, tokens, cost,
// latency and how runs ended, over a chosen range; the figures are read in the browser from
// GET /api/projects/:id/analytics and .../outcomes.
import Link from "next/link";
import { notFound } from "next/navigation";
import { AnalyticsDashboard } from "@/components/analytics/AnalyticsDashboard";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

export default async function ProjectAnalyticsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  return (
    <AppFrame
      crumbs={[{ label: project.name, href: `/projects/${project.id}` }, { label: "Analytics" }]}
      sections={projectSections(project.id, "analytics")}
    >
      <div className="mx-auto flex max-w-[1760px] flex-col gap-5 px-6 py-6">
        <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <h1 className="text-xl font-semibold">Analytics</h1>
          <p className="text-sm text-muted">
            Runs, model calls, tokens, cost and latency of {project.name}&apos;s threads (subagents included).
          </p>
          <Link className="ml-auto text-sm text-accent underline" href={`/projects/${project.id}/studio`}>
            Open studio
          </Link>
        </div>
        <AnalyticsDashboard projectId={project.id} />
      </div>
    </AppFrame>
  );
}
