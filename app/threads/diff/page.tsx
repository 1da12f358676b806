// /threads/diff?a=:id&b=:id — two runs side by side (components/threads/RunDiffView). A static
// segment beside /threads/[id]: Next matches it first, so "diff" is never taken for a thread id.
import Link from "next/link";
import { agentInfoFromDefinitions } from "@/components/threads/agent-info";
import { RunDiffView } from "@/components/threads/RunDiffView";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const single = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

export default async function ThreadDiffPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const a = single(query.a);
  const b = single(query.b);
  // The breadcrumb names the runs' project when it can; the view itself reports unknown threads and
  // links back to a run that exists (or its project, or the projects).
  const runtime = await getRuntime();
  const readThread = (id: string) => (id ? runtime.threads.get(id).catch(() => null) : Promise.resolve(null));
  const [threadA, threadB] = await Promise.all([readThread(a), readThread(b)]);
  const known = threadA ?? threadB;
  const project = known ? await runtime.projects.get(known.project_id).catch(() => null) : null;
  // Each run's agents as of the version it ran with (an agent since removed or renamed keeps its
  // title and side labels); the project's latest definitions fill in the rest.
  const ranWith = (thread: typeof threadA) =>
    thread
      ? runtime.projects
          .getVersion(thread.project_id, thread.version)
          .then((version) => version.definitions)
          .catch(() => null)
      : Promise.resolve(null);
  const [definitionsA, definitionsB] = await Promise.all([ranWith(threadA), ranWith(threadB)]);
  const backLink =
    known && !(threadA && threadB)
      ? {
          href: `/threads/${known.id}`,
          label: `Back to run ${threadA ? "A" : "B"} (${known.name ?? known.agent_id} ${known.id.slice(0, 8)})`,
        }
      : project
        ? { href: `/projects/${project.id}`, label: `Back to ${project.name}` }
        : { href: "/", label: "Go to the projects" };
  return (
    <AppFrame
      crumbs={[
        ...(project ? [{ label: project.name, href: `/projects/${project.id}` }] : []),
        { label: "Compare runs" },
      ]}
      sections={project ? projectSections(project.id) : []}
    >
      <h1 className="sr-only">Compare two runs</h1>
      {a && b ? (
        <RunDiffView
          a={a}
          b={b}
          backLink={backLink}
          agents={{
            ...(project ? agentInfoFromDefinitions(project.definitions) : {}),
            ...agentInfoFromDefinitions(definitionsB),
            ...agentInfoFromDefinitions(definitionsA),
          }}
        />
      ) : (
        <div className="m-6 max-w-2xl rounded-md border border-border bg-surface p-4">
          <p className="font-medium">Choose two runs to compare.</p>
          <p className="mt-1 text-sm text-muted">
            Open a thread and pick <span className="font-medium">Compare with…</span> in its header, or fork
            it from a message and compare the fork with the original.
          </p>
          <Link href="/" className="mt-3 inline-block text-accent underline">
            Go to the projects
          </Link>
        </div>
      )}
    </AppFrame>
  );
}
