// Whether a control may be used by the signed-in user in this project: allowed while the role is
// still being found out (the server decides anyway), then as the role table says.
import { allows, type ProjectAction } from "@/lib/access/roles";
import type { ProjectAccessState } from "./useProjectAccess";

export function permission(
  state: ProjectAccessState,
  action: ProjectAction,
): { ok: true } | { ok: false; reason: string } {
  return state.loading ? { ok: true } : allows(state, action);
}
