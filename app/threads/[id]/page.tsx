// A thread's live view: the tree of its root with every subagent, and the selected thread's
// transcript and controls, fed by one event stream (components/threads/ThreadView).
import { notFound } from "next/navigation";
import { agentInfoFromDefinitions } from "@/components/threads/agent-info";
import { ThreadView } from "@/components/threads/ThreadView";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const runtime = await getRuntime();
  const thread = await runtime.threads.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  // A fork's root names its source ("Forked from <name> at message #n", and "Compare with original").
  const root = thread.id === thread.root_id ? thread : await runtime.threads.get(thread.root_id);
  // The agents as the run knows them: those of the version it runs with, not the project's latest (a
  // template applied since may have no agent of that name, and the chat would lose its message box).
  // Whether "Replay…" can offer the latest saved definitions: not when they lack the run's agent.
  const [project, ranWith, isReplay, latestOffer, traceUrl] = await Promise.all([
    runtime.projects.get(thread.project_id),
    runtime.projects.getVersion(thread.project_id, root.version),
    runtime.replays.isReplay(thread.root_id),
    runtime.replays.latestOffer(thread.root_id),
    // Traces out: a link to the run tree's trace when TANDEM_TRACE_URL_TEMPLATE names the tool.
    runtime.threads.traceUrl(thread.root_id, process.env.TANDEM_TRACE_URL_TEMPLATE),
  ]);
  return (
    <AppFrame
      crumbs={[
        { label: project.name, href: `/projects/${project.id}` },
        { label: `thread ${thread.root_id.slice(0, 8)}`, mono: true },
      ]}
      sections={projectSections(project.id)}
    >
      <ThreadView
        key={thread.root_id}
        projectId={thread.project_id}
        rootId={thread.root_id}
        initialSelectedId={thread.id}
        agents={agentInfoFromDefinitions(ranWith.definitions)}
        forkedFrom={root.forked_from ?? null}
        isReplay={isReplay}
        replayLatest={latestOffer}
        traceUrl={traceUrl}
      />
    </AppFrame>
  );
}
