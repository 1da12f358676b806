// One eval suite of a project: its cases, Run with live progress, results and its runs to compare
// (components/evals/SuiteView). The suite itself is read in the browser, over the HTTP API.
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { SuiteView } from "@/components/evals/SuiteView";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { definitionNames } from "@/lib/evals/starter-suites";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

export default async function SuitePage({ params }: { params: Promise<{ id: string; suiteId: string }> }) {
  const { id, suiteId } = await params;
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  // The suite's name for the breadcrumb; an unknown suite is reported by the view itself.
  const suiteName = await runtime.evals
    .get(project.id, suiteId)
    .then((suite) => suite.name)
    .catch(() => "suite");
  return (
    <AppFrame
      crumbs={[
        { label: project.name, href: `/projects/${project.id}` },
        { label: "evals", href: `/projects/${project.id}/evals` },
        { label: suiteName },
      ]}
      sections={projectSections(project.id, "evals")}
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-6 py-8">
        <Suspense>
          <SuiteView
            projectId={project.id}
            suiteId={suiteId}
            models={definitionNames(project.definitions).models}
            latestVersion={project.version}
          />
        </Suspense>
      </div>
    </AppFrame>
  );
}
