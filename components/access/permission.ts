// Whether a control may be used by the signed-in user in this project: allowed while the role is
// still being found out (the server decides anyway), then as the role table says. `usePermission`
// is the one hook every role-aware control asks: the project is given, or the page's
// ProjectIdProvider's (none, as when a component is rendered alone: allowed).
import { allows, type ProjectAction } from "@/lib/access/roles";
import { useProjectId } from "./ProjectIdContext";
import { type ProjectAccessState, useProjectAccess } from "./useProjectAccess";

export type Permission = { ok: true } | { ok: false; reason: string };

export function permission(state: ProjectAccessState, action: ProjectAction): Permission {
  return state.loading ? { ok: true } : allows(state, action);
}

export function usePermission(action: ProjectAction, projectId?: string | null): Permission {
  const fromPage = useProjectId();
  const id = projectId ?? fromPage ?? "";
  const state = useProjectAccess(id);
  return id === "" ? { ok: true } : permission(state, action);
}

/** The reason a control is refused, or null: what `Gated` and `disabled` take. */
export function refusal(allowed: Permission): string | null {
  return allowed.ok ? null : allowed.reason;
}
