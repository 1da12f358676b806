// Project settings: the credentials tab (components/access/CredentialsPanel.tsx).
import { CredentialsPanel } from "@/components/access/CredentialsPanel";

export const dynamic = "force-dynamic";

export default async function ProjectCredentialsPanelPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <CredentialsPanel projectId={id} />;
}
