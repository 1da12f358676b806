// Project settings: the audit tab (components/access/AuditPanel.tsx).
import { AuditPanel } from "@/components/access/AuditPanel";

export const dynamic = "force-dynamic";

export default async function ProjectAuditPanelPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AuditPanel projectId={id} />;
}
