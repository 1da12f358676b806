// The studio for one project: the canvas document is loaded on the server and edited in the browser.
import { notFound } from "next/navigation";
import { Studio } from "@/components/studio/Studio";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { GraphSchema } from "@/lib/graph";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

export default async function StudioPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  const graph = GraphSchema.parse(project.graph);
  return (
    <AppFrame
      crumbs={[{ label: project.name, href: `/projects/${project.id}` }, { label: "studio" }]}
      sections={projectSections(project.id, "studio")}
    >
      <h1 className="sr-only">{project.name}: studio</h1>
      <Studio projectId={project.id} graph={graph} version={project.version} />
    </AppFrame>
  );
}
