// /projects/:id/evals/compare?a=:runId&b=:runId — two eval runs case by case (components/evals/
// CompareView). A static segment beside [suiteId]: Next matches it first.
import Link from "next/link";
import { notFound } from "next/navigation";
import { CompareView } from "@/components/evals/CompareView";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const single = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

export default async function CompareEvalRunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: SearchParams;
}) {
  const { id } = await params;
  const query = await searchParams;
  const a = single(query.a);
  const b = single(query.b);
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  return (
    <AppFrame
      crumbs={[
        { label: project.name, href: `/projects/${project.id}` },
        { label: "evals", href: `/projects/${project.id}/evals` },
        { label: "compare" },
      ]}
      sections={projectSections(project.id, "evals")}
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-6 py-8">
        {a && b ? (
          <CompareView projectId={project.id} a={a} b={b} />
        ) : (
          <div className="max-w-2xl rounded-md border border-border bg-surface p-4">
            <h1 className="font-medium">Choose two runs to compare.</h1>
            <p className="mt-1 text-sm text-muted">
              Open a suite, pick a run as A and another as B under <span className="font-medium">Runs</span>,
              then choose <span className="font-medium">Compare A with B</span>.
            </p>
            <Link href={`/projects/${project.id}/evals`} className="mt-3 inline-block text-accent underline">
              Go to the suites
            </Link>
          </div>
        )}
      </div>
    </AppFrame>
  );
}
