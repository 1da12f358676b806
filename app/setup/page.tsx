// /setup: turn accounts on by creating the first admin. Only while no user exists; afterwards it
// says so and points to /login.
import { SetupForm } from "@/components/access/SetupForm";
import { AppFrame } from "@/components/ui/AppFrame";

export const dynamic = "force-dynamic";

export default function SetupPage() {
  return (
    <AppFrame crumbs={[{ label: "Set up accounts" }]}>
      <div className="mx-auto mt-12 max-w-md rounded-lg border border-border bg-surface p-6">
        <h1 className="mb-2 text-lg font-semibold">Set up accounts</h1>
        <p className="mb-2 text-sm text-muted">
          Create the first account: it is an admin, who sees every project and creates the other accounts.
        </p>
        <p className="mb-4 text-sm text-muted">
          Once it exists, everyone signs in, each project has members with roles (owner, editor, runner,
          viewer), and scripts use project API keys. Existing projects stay; an admin adds their members.
        </p>
        <SetupForm />
      </div>
    </AppFrame>
  );
}
