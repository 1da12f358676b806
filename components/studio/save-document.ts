// Saves the studio's document through the projects API, with optimistic concurrency on the base
// version. A refused save (409) never touches the local document: it opens the conflict dialog,
// which merges or saves over the newer version. A canvas with errors asks before it is saved.
import { ApiError, createApiClient } from "@/lib/api/client";
import { compileGraph, deriveEdges, emptyGraph, type Graph, GraphSchema } from "@/lib/graph";
import { type MergeResult, mergeDocuments } from "@/lib/studio/merge";
import type { StudioState, StudioStore } from "@/lib/studio/studio-store";
import { unappliedFieldsOn } from "@/lib/studio/unapplied-fields";

/** Number of error diagnostics in the present document. */
export function errorCount(document: Graph): number {
  return compileGraph(document).diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
}

/** Inspector fields holding text that does not parse (not in the document, so not saved). */
export function unappliedFieldCount(state: StudioState): number {
  if (state.unappliedFields.length === 0) return 0;
  const present = state.history.present;
  const itemIds = new Set([
    ...present.nodes.map((node) => node.id),
    ...deriveEdges(present).map((edge) => edge.id),
  ]);
  return unappliedFieldsOn(state.unappliedFields, itemIds).length;
}

/**
 * The save command: asks first ("Save with N problems?") when the canvas has errors or an inspector
 * field holds text that is not applied.
 */
export function requestSave(store: StudioStore, projectId: string): void {
  const state = store.getState();
  if (errorCount(state.history.present) + unappliedFieldCount(state) > 0) {
    store.getState().openDialog("save-problems");
    return;
  }
  void saveDocument(store, projectId);
}

function currentVersionOf(error: ApiError): number | null {
  const body = error.body as { current_version?: unknown } | null;
  return typeof body?.current_version === "number" ? body.current_version : null;
}

/**
 * Saves the present document on top of `base` (default: the version it was edited from). True when
 * saved; on a conflict the dialog opens and the document stays as it is.
 */
export async function saveDocument(
  store: StudioStore,
  projectId: string,
  base?: number | null,
): Promise<boolean> {
  const { history, baseVersion, staleBase, setStatus } = store.getState();
  const document = history.present;
  const editedFrom = staleBase ?? baseVersion;
  setStatus({ tone: "info", text: "Saving…" });
  try {
    const saved = await createApiClient().projects.saveGraph(projectId, document, base ?? editedFrom);
    store.getState().saved(saved.version, document);
    store.getState().setStatus({ tone: "info", text: `Saved v${saved.version}` });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      const currentVersion = currentVersionOf(error);
      store.getState().setStatus({
        tone: "error",
        text: `Not saved: ${currentVersion ? `v${currentVersion}` : "a newer version"} was saved meanwhile. Your changes are kept here and in this browser's draft.`,
      });
      store.getState().conflicted({ baseVersion: editedFrom, currentVersion });
      return false;
    }
    store.getState().setStatus({ tone: "error", text: `Not saved: ${(error as Error).message}` });
    return false;
  }
}

/** What a merge would do, computed when the conflict dialog opens. */
export interface MergePreview extends MergeResult {
  theirs: Graph;
  theirsVersion: number;
  /** False when the common base could not be read (then every node both sides have counts as added on both). */
  baseFound: boolean;
}

export async function previewMerge(
  projectId: string,
  ours: Graph,
  baseVersion: number | null,
): Promise<MergePreview> {
  const client = createApiClient();
  const [project, base] = await Promise.all([
    client.projects.get(projectId),
    baseVersion === null
      ? Promise.resolve(null)
      : client.versions.get(projectId, baseVersion).then(
          (version) => GraphSchema.parse(version.graph),
          () => null,
        ),
  ]);
  const theirs = GraphSchema.parse(project.graph);
  return {
    ...mergeDocuments(base ?? emptyGraph(), ours, theirs),
    theirs,
    theirsVersion: project.version,
    baseFound: base !== null,
  };
}

/** Puts the merge on the canvas (one undo step) and saves it on top of their version. */
export async function saveMerged(
  store: StudioStore,
  projectId: string,
  preview: MergePreview,
): Promise<boolean> {
  store.getState().merged(preview.document, preview.theirs, preview.theirsVersion);
  const saved = await saveDocument(store, projectId);
  if (saved) {
    const { baseVersion } = store.getState();
    store.getState().setStatus({
      tone: "info",
      text: `Merged with v${preview.theirsVersion} and saved v${baseVersion}${preview.conflicts.length > 0 ? ` (yours kept on ${preview.conflicts.length} ${preview.conflicts.length === 1 ? "node" : "nodes"} changed on both sides)` : ""}`,
    });
  }
  return saved;
}

/** Saves the local document as a new version on top of the server's current one (theirs stays in History). */
export async function saveOverwriting(store: StudioStore, projectId: string): Promise<boolean> {
  const current = await createApiClient()
    .projects.get(projectId)
    .then((project) => project.version)
    .catch(() => store.getState().conflict?.currentVersion ?? null);
  const saved = await saveDocument(store, projectId, current);
  if (saved) {
    store.getState().setStatus({
      tone: "info",
      text: `Saved v${store.getState().baseVersion}; v${current} stays in History`,
    });
  }
  return saved;
}
