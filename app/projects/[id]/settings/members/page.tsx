// Project settings: the members tab (components/access/MembersPanel.tsx).
import { MembersPanel } from "@/components/access/MembersPanel";

export const dynamic = "force-dynamic";

export default async function ProjectMembersPanelPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <MembersPanel projectId={id} />;
}
