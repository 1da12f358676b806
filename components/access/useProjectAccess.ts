"use client";
// The signed-in user's role in one project, for role-aware controls: everything is allowed without
// accounts (the local default), for admins and for the API token; otherwise the role comes from the
// project's member list (GET /api/projects/:id/members, which every role may read), asked once per
// project and user and shared by every control of the page. While it is being found out, or when the
// list cannot be read, the least role (viewer) is assumed — a control appears once it is known to
// work rather than vanishing after a click.
import { useEffect, useState } from "react";
import { FULL_ACCESS, type ProjectAccess, type ProjectRole } from "@/lib/access/roles";
import { createAccessClient } from "@/lib/api/access-client";
import { useAccountSession } from "./useAccountSession";

const access = createAccessClient();

export type ProjectAccessState = ProjectAccess & {
  loading: boolean;
  userId: string | null;
  accounts: boolean;
};

const roles = new Map<string, Promise<ProjectRole>>();

function loadRole(projectId: string, userId: string): Promise<ProjectRole> {
  const key = `${projectId}:${userId}`;
  let pending = roles.get(key);
  if (!pending) {
    pending = access.members.list(projectId).then(
      (members) => members.find((member) => member.userId === userId)?.role ?? "viewer",
      () => {
        roles.delete(key);
        return "viewer" as const;
      },
    );
    roles.set(key, pending);
  }
  return pending;
}

/** Forget the roles asked so far (after the members page changes one). */
export function forgetProjectRoles(): void {
  roles.clear();
}

export function useProjectAccess(projectId: string): ProjectAccessState {
  const session = useAccountSession();
  const [role, setRole] = useState<ProjectAccess["role"] | "unknown">("unknown");
  const user = session.status === "ready" ? session.session.user : null;
  // No user on a page means no accounts, or the API token's session (a server-wide admin: pages
  // are gated, so nobody else gets here).
  const fullAccess = session.status === "ready" && (!session.session.accounts || user === null || user.admin);
  const userId = user?.id ?? null;

  useEffect(() => {
    if (fullAccess || userId === null || projectId === "") return;
    let live = true;
    void loadRole(projectId, userId).then((found) => live && setRole(found));
    return () => {
      live = false;
    };
  }, [projectId, userId, fullAccess]);

  const accounts = session.status === "ready" && session.session.accounts;
  if (session.status === "error") return { ...FULL_ACCESS, loading: false, userId: null, accounts: false };
  if (session.status === "loading") return { role: "viewer", loading: true, userId: null, accounts: false };
  if (fullAccess) return { ...FULL_ACCESS, loading: false, userId, accounts };
  if (role === "unknown") return { role: "viewer", loading: userId !== null, userId, accounts };
  return { role, loading: false, userId, accounts };
}
