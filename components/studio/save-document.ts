// Saves the studio's document through the projects API, with optimistic concurrency on the base version.
import { ApiError, createApiClient } from "@/lib/api/client";
import type { StudioStore } from "@/lib/studio/studio-store";

export const CONFLICT_MESSAGE =
  "Someone saved a newer version; reload to see it — your changes are kept here.";

/** Saves the present document; true when it was saved. */
export async function saveDocument(store: StudioStore, projectId: string): Promise<boolean> {
  const { history, baseVersion, setStatus } = store.getState();
  const document = history.present;
  setStatus({ tone: "info", text: "Saving…" });
  try {
    const saved = await createApiClient().projects.saveGraph(projectId, document, baseVersion);
    store.getState().saved(saved.version, document);
    store.getState().setStatus({ tone: "info", text: `Saved v${saved.version}` });
    return true;
  } catch (error) {
    const text =
      error instanceof ApiError && error.status === 409
        ? CONFLICT_MESSAGE
        : `Not saved: ${(error as Error).message}`;
    store.getState().setStatus({ tone: "error", text });
    return false;
  }
}
