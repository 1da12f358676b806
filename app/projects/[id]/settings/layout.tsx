// A project's settings: members, API keys, credentials and the audit log, under one header and tabs.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { SettingsNav } from "@/components/access/SettingsNav";
import { AppFrame, projectSections } from "@/components/ui/AppFrame";
import { isTandemError } from "@/runtime/errors";
import { getRuntime } from "@/runtime/runtime";

export const dynamic = "force-dynamic";

export default async function ProjectSettingsLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: ReactNode;
}) {
  const { id } = await params;
  const runtime = await getRuntime();
  const project = await runtime.projects.get(id).catch((error: unknown) => {
    if (isTandemError(error) && error.kind === "not_found") notFound();
    throw error;
  });
  return (
    <AppFrame
      crumbs={[{ label: project.name, href: `/projects/${project.id}` }, { label: "Settings" }]}
      sections={projectSections(project.id, "settings")}
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-5 px-6 py-8">
        <h1 className="text-xl font-semibold break-words">{project.name}: settings</h1>
        <SettingsNav projectId={project.id} />
        {children}
      </div>
    </AppFrame>
  );
}
