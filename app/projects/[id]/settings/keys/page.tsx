// Project settings: the keys tab (components/access/KeysPanel.tsx).
import { KeysPanel } from "@/components/access/KeysPanel";

export const dynamic = "force-dynamic";

export default async function ProjectKeysPanelPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <KeysPanel projectId={id} />;
}
