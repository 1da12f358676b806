// A project's Evals view: its eval suites, a new one for an agent of the latest saved version, and
// the suites of the template the project was made from (components/evals/EvalsHome; docs/evals.md).
import { notFound } from "next/navigation";
import { EvalsHome } from "@/components/evals/EvalsHome";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { definitionNames, starterSuitesFor } from "@/lib/evals/starter-suites";
import { STUDIO_TEMPLATES } from "@/lib/studio/templates";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

export default async function EvalsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  const names = definitionNames(project.definitions);
  // A template's suites are offered when the project has their agent and the models they name.
  const starterSuites = starterSuitesFor(STUDIO_TEMPLATES, names);
  return (
    <AppFrame
      crumbs={[{ label: project.name, href: `/projects/${project.id}` }, { label: "evals" }]}
      sections={projectSections(project.id, "evals")}
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-6 py-8">
        <div>
          <h1 className="text-xl font-semibold">Evals</h1>
          <p className="mt-1 max-w-3xl text-sm text-muted">
            Is this version better than the last, or did an edit break conversations you were not looking at?
            Run a suite of cases against a saved version, then compare two runs case by case.
          </p>
        </div>
        <EvalsHome projectId={project.id} agents={names.agents} starterSuites={starterSuites} />
      </div>
    </AppFrame>
  );
}
