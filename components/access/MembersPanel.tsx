"use client";
// Project members: who has which role, add a user, change a role, remove someone (owners only; the
// others see the list and why they cannot change it). What each role may do is spelled out beside.
import Link from "next/link";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { PROJECT_ROLES, type ProjectRole, ROLE_DESCRIPTIONS } from "@/lib/access/roles";
import { createAccessClient } from "@/lib/api/access-client";
import type { AccountUser, ProjectMember } from "@/lib/api/access-schemas";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "./ConfirmDialog";
import { describeAccessError, FormError, INPUT_CLASSES } from "./fields";
import { Gated } from "./Gated";
import { EmptyState, LoadFailed, LoadingRows } from "./PanelStates";
import { permission } from "./permission";
import { forgetProjectRoles, useProjectAccess } from "./useProjectAccess";

const access = createAccessClient();

type Load =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; members: ProjectMember[] };

export function MembersPanel({ projectId }: { projectId: string }) {
  const projectAccess = useProjectAccess(projectId);
  const manage = permission(projectAccess, "manage");
  const reason = manage.ok ? null : manage.reason;
  const [load, setLoad] = useState<Load>({ status: "loading" });
  // undefined while loading; null when the server does not list accounts (type an id instead).
  const [users, setUsers] = useState<AccountUser[] | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ProjectMember | null>(null);

  const refresh = useCallback(async () => {
    setLoad({ status: "loading" });
    try {
      setLoad({ status: "ready", members: await access.members.list(projectId) });
    } catch (caught) {
      setLoad({ status: "failed", message: describeAccessError(caught) });
    }
  }, [projectId]);
  useEffect(() => {
    void refresh();
    // Admins may pick from every account; others type the user's id (the list is admin-only).
    access.users.list().then(setUsers, () => setUsers(null));
  }, [refresh]);
  // A role changed here is asked again by the next page's role-aware controls.
  useEffect(() => {
    if (load.status === "ready") forgetProjectRoles();
  }, [load]);

  if (!projectAccess.loading && !projectAccess.accounts) {
    return (
      <EmptyState title="No accounts on this server yet">
        Members need accounts.{" "}
        <Link className="underline" href="/setup">
          Set up accounts
        </Link>{" "}
        to give people roles in this project.
      </EmptyState>
    );
  }

  async function changeRole(userId: string, role: ProjectRole) {
    setError(null);
    try {
      setLoad({ status: "ready", members: await access.members.put(projectId, userId, role) });
    } catch (caught) {
      setError(describeAccessError(caught));
    }
  }

  const members = load.status === "ready" ? load.members : [];
  const candidates =
    users === undefined
      ? "loading"
      : (users?.filter((user) => !members.some((member) => member.userId === user.id)) ?? null);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="flex min-w-0 flex-col gap-4">
        <AddMemberForm
          candidates={candidates}
          reason={reason}
          onAdd={async (userId, role) => {
            setError(null);
            setLoad({ status: "ready", members: await access.members.put(projectId, userId, role) });
          }}
        />
        <FormError message={error} />
        {load.status === "loading" ? <LoadingRows label="Loading members…" /> : null}
        {load.status === "failed" ? (
          <LoadFailed what="the members" message={load.message} onRetry={() => void refresh()} />
        ) : null}
        {load.status === "ready" && members.length === 0 ? (
          <EmptyState title="No members yet">
            Add the first member above: an owner can then manage the project.
          </EmptyState>
        ) : null}
        {members.length > 0 ? (
          <table className="w-full text-sm" aria-label="Members">
            <thead className="text-left text-xs text-muted">
              <tr>
                <th className="py-1 font-medium">Member</th>
                <th className="py-1 font-medium">Role</th>
                <th className="py-1">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => {
                const label = member.name || member.email || member.userId;
                const you = member.userId === projectAccess.userId;
                return (
                  <tr key={member.userId} className="border-t border-border">
                    <td className="py-2 pr-3">
                      <div className="font-medium">
                        {label}
                        {you ? <span className="ml-1 text-xs text-muted">(you)</span> : null}
                      </div>
                      {member.email && member.email !== label ? (
                        <div className="text-xs text-muted">{member.email}</div>
                      ) : null}
                    </td>
                    <td className="py-2 pr-3">
                      <Gated reason={reason}>
                        <select
                          aria-label={`Role of ${label}`}
                          value={member.role}
                          disabled={reason !== null}
                          onChange={(event) =>
                            void changeRole(member.userId, event.target.value as ProjectRole)
                          }
                          className={INPUT_CLASSES}
                        >
                          {PROJECT_ROLES.map((role) => (
                            <option key={role} value={role}>
                              {role}
                            </option>
                          ))}
                        </select>
                      </Gated>
                    </td>
                    <td className="py-2 text-right">
                      <Gated reason={reason}>
                        <Button
                          size="compact"
                          tone="danger"
                          disabled={reason !== null}
                          onClick={() => setRemoving(member)}
                        >
                          Remove<span className="sr-only"> {label}</span>
                        </Button>
                      </Gated>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : null}
      </div>
      <aside
        aria-label="What each role may do"
        className="rounded-md border border-border bg-surface p-3 text-sm"
      >
        <h2 className="mb-2 font-semibold">Roles</h2>
        <dl className="flex flex-col gap-2">
          {PROJECT_ROLES.map((role) => (
            <div key={role}>
              <dt className="font-medium capitalize">{role}</dt>
              <dd className="text-muted">{ROLE_DESCRIPTIONS[role]}</dd>
            </div>
          ))}
          <div>
            <dt className="font-medium">Admin</dt>
            <dd className="text-muted">
              An account setting, not a role: admins see every project and create accounts.
            </dd>
          </div>
        </dl>
      </aside>
      <ConfirmDialog
        open={removing !== null}
        title="Remove member"
        body={`${removing?.name || removing?.email || removing?.userId} loses access to this project at once. Their past actions stay in the audit log.`}
        confirmLabel="Remove member"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          const remaining = await access.members.remove(projectId, removing.userId);
          setLoad({
            status: "ready",
            members: remaining.length > 0 ? remaining : members.filter((m) => m.userId !== removing.userId),
          });
        }}
      />
    </div>
  );
}

function AddMemberForm({
  candidates,
  reason,
  onAdd,
}: {
  candidates: AccountUser[] | null | "loading";
  reason: string | null;
  onAdd(userId: string, role: ProjectRole): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const userId = String(form.get("user") ?? "").trim();
    if (!userId) {
      setError(candidates ? "Pick the user to add." : "Type the user's id.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onAdd(userId, String(form.get("role")) as ProjectRole);
      formElement.reset();
    } catch (caught) {
      setError(describeAccessError(caught));
    } finally {
      setBusy(false);
    }
  }
  const disabled = reason !== null || busy;
  return (
    <form
      onSubmit={submit}
      aria-label="Add member"
      className="flex flex-col gap-2 rounded-md border border-border bg-surface p-3"
    >
      <h2 className="text-sm font-semibold">Add a member</h2>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          <label htmlFor="add-member-user">User</label>
          {candidates === "loading" ? (
            <select id="add-member-user" name="user" className={INPUT_CLASSES} disabled aria-busy="true">
              <option>Loading accounts…</option>
            </select>
          ) : candidates ? (
            <select
              id="add-member-user"
              name="user"
              className={INPUT_CLASSES}
              disabled={disabled}
              defaultValue=""
            >
              <option value="" disabled>
                {candidates.length === 0 ? "Every account is a member already" : "Choose an account…"}
              </option>
              {candidates.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name ? `${user.name} <${user.email}>` : user.email}
                </option>
              ))}
            </select>
          ) : (
            <input
              id="add-member-user"
              name="user"
              placeholder="User id"
              className={INPUT_CLASSES}
              disabled={disabled}
              maxLength={200}
            />
          )}
        </div>
        <label className="flex flex-col gap-1 text-sm">
          <span>Role</span>
          <select name="role" defaultValue="viewer" className={INPUT_CLASSES} disabled={disabled}>
            {PROJECT_ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <Gated reason={reason}>
          <Button tone="primary" type="submit" disabled={disabled} aria-busy={busy || undefined}>
            {busy ? "Adding…" : "Add member"}
          </Button>
        </Gated>
      </div>
      <FormError message={error} />
    </form>
  );
}
