// /projects/:id/settings opens its first tab, Members.
import { redirect } from "next/navigation";

export default async function ProjectSettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  redirect(`/projects/${encodeURIComponent(id)}/settings/members`);
}
