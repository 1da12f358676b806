// /admin/users: admins create accounts (and see them, when the server lists them).
import { CreateUserForm } from "@/components/access/CreateUserForm";
import { AppFrame } from "@/components/ui/AppFrame";

export const dynamic = "force-dynamic";

export default function AdminUsersPage() {
  return (
    <AppFrame crumbs={[{ label: "Users" }]}>
      <div className="mx-auto flex max-w-3xl flex-col gap-5 px-6 py-8">
        <div>
          <h1 className="text-xl font-semibold">Users</h1>
          <p className="text-sm text-muted">
            Accounts on this server. Give an account access to a project on that project's Settings → Members
            page.
          </p>
        </div>
        <CreateUserForm />
      </div>
    </AppFrame>
  );
}
