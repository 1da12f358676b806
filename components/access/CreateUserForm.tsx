"use client";
// Admins create accounts (POST /api/users): name, email, a first password to hand over, and
// whether the new account is an admin too. Created accounts are listed below (when the server lists
// them), ready to add to projects on a project's Members page.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { createAccessClient } from "@/lib/api/access-client";
import type { AccountUser } from "@/lib/api/access-schemas";
import { Button } from "../ui/Button";
import { describeAccessError, FormError, TextField } from "./fields";
import { EmptyState } from "./PanelStates";
import { useAccountSession } from "./useAccountSession";

const access = createAccessClient();

export function CreateUserForm() {
  const session = useAccountSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<AccountUser[]>([]);
  const [users, setUsers] = useState<AccountUser[] | null>(null);
  const loadUsers = useCallback(() => {
    access.users.list().then(setUsers, () => setUsers(null));
  }, []);
  useEffect(loadUsers, [loadUsers]);

  if (session.status === "loading") return <p className="text-sm text-muted">Checking your account…</p>;
  if (session.status === "ready" && !session.session.user?.admin) {
    return (
      <EmptyState title="Only admins create accounts">
        {session.session.accounts
          ? "Ask an admin of this server to create an account."
          : "This server has no accounts yet: set them up first at /setup."}
      </EmptyState>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    setError(null);
    try {
      const user = await access.users.create({
        name: String(form.get("name") ?? "").trim(),
        email: String(form.get("email") ?? "").trim(),
        password: String(form.get("password") ?? ""),
        admin: form.get("admin") === "on",
      });
      setCreated((current) => [user, ...current]);
      formElement.reset();
      loadUsers();
    } catch (caught) {
      setError(describeAccessError(caught));
    } finally {
      setBusy(false);
    }
  }

  const listed = users ?? created;
  return (
    <div className="flex flex-col gap-6">
      <form
        onSubmit={submit}
        aria-label="Create account"
        className="flex flex-col gap-3 rounded-md border border-border bg-surface p-4"
      >
        <h2 className="text-sm font-semibold">Create an account</h2>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label="Name" name="name" required maxLength={200} autoComplete="off" />
          <TextField label="Email" name="email" type="email" required maxLength={320} autoComplete="off" />
          <TextField
            label="First password"
            name="password"
            type="password"
            required
            minLength={8}
            maxLength={1024}
            autoComplete="new-password"
            hint="Hand it over privately."
          />
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="admin" />
          Admin (sees every project and creates accounts)
        </label>
        <FormError message={error} />
        <div>
          <Button tone="primary" type="submit" disabled={busy} aria-busy={busy || undefined}>
            {busy ? "Creating…" : "Create account"}
          </Button>
        </div>
      </form>
      {listed.length > 0 ? (
        <section aria-label="Accounts">
          <h2 className="mb-2 text-sm font-semibold">{users ? "Accounts" : "Created just now"}</h2>
          <ul className="flex flex-col divide-y divide-border rounded-md border border-border bg-surface text-sm">
            {listed.map((user) => (
              <li key={user.id} className="flex items-center gap-3 px-3 py-2">
                <span className="font-medium">{user.name}</span>
                <span className="text-muted">{user.email}</span>
                {user.admin ? (
                  <span className="rounded bg-surface-muted px-1 text-[11px] font-semibold uppercase text-muted">
                    admin
                  </span>
                ) : null}
                <span
                  className="ml-auto font-mono text-xs text-muted"
                  title="The id a project's Members page adds"
                >
                  {user.id}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
