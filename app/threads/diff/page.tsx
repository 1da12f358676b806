// /threads/diff?a=:id&b=:id — two runs side by side (components/threads/RunDiffView). A static
// segment beside /threads/[id]: Next matches it first, so "diff" is never taken for a thread id.
import Link from "next/link";
import { RunDiffView } from "@/components/threads/RunDiffView";
import { AppFrame } from "@/components/ui/AppFrame";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const single = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

export default async function ThreadDiffPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const a = single(query.a);
  const b = single(query.b);
  // The breadcrumb names run A's project when it can; the view itself reports unknown threads.
  const runtime = await getRuntime();
  const project = a
    ? await runtime.threads
        .get(a)
        .then((thread) => runtime.projects.get(thread.project_id))
        .catch(() => null)
    : null;
  return (
    <AppFrame
      crumbs={[
        ...(project ? [{ label: project.name, href: `/projects/${project.id}` }] : []),
        { label: "Compare runs" },
      ]}
    >
      <h1 className="sr-only">Compare two runs</h1>
      {a && b ? (
        <RunDiffView a={a} b={b} />
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
