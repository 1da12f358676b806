"use client";
import { useRouter } from "next/navigation";
import { type ChangeEvent, useState } from "react";
import { ApiError, createApiClient } from "@/lib/api/client";
import { type ImportDiagnostic, ImportRefusalSchema } from "@/lib/contracts/project";
// Replaces a project's definitions from a .ts file, a zipped project or a JSON bundle; shows the
// problems (with line:column) when the import is refused, and reloads the page data when it succeeds.
import { permission } from "../access/permission";
import { useProjectAccess } from "../access/useProjectAccess";
import { diagnosticLocation, IMPORT_ACCEPT, importContentType } from "./import-file";

const api = createApiClient();

type ImportState =
  | { kind: "idle" }
  | { kind: "importing"; fileName: string }
  | { kind: "imported"; fileName: string; version: number }
  | { kind: "failed"; message: string; diagnostics: ImportDiagnostic[] };

function refusalDiagnostics(error: unknown): ImportDiagnostic[] {
  if (!(error instanceof ApiError)) return [];
  const parsed = ImportRefusalSchema.safeParse(error.body);
  return parsed.success ? parsed.data.diagnostics : [];
}

export function ImportDefinitions({ projectId }: { projectId: string }) {
  const router = useRouter();
  const [state, setState] = useState<ImportState>({ kind: "idle" });
  // Importing saves a version: an editor's or owner's to do (the role table, lib/access/roles.ts).
  const mayImport = permission(useProjectAccess(projectId), "import");

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const contentType = importContentType(file.name);
    if (!contentType) {
      setState({
        kind: "failed",
        message: `Cannot import ${file.name}: choose a .ts, .zip or .json file.`,
        diagnostics: [],
      });
      input.value = "";
      return;
    }
    setState({ kind: "importing", fileName: file.name });
    try {
      const saved = await api.projects.importDefinitions(projectId, await file.arrayBuffer(), contentType);
      setState({ kind: "imported", fileName: file.name, version: saved.version });
      router.refresh();
    } catch (error) {
      setState({
        kind: "failed",
        message: error instanceof Error ? error.message : "The import failed.",
        diagnostics: refusalDiagnostics(error),
      });
    } finally {
      input.value = "";
    }
  }

  return (
    <section
      aria-label="Import"
      className="flex flex-col gap-2 rounded-lg border border-border bg-surface px-4 py-3"
    >
      <label className="flex items-center gap-3 text-sm">
        <span className="font-medium">Import definitions</span>
        <input
          type="file"
          accept={IMPORT_ACCEPT}
          aria-label="Import definitions"
          disabled={state.kind === "importing" || !mayImport.ok}
          onChange={importFile}
          className="min-w-0 text-sm text-muted file:mr-3 file:h-8 file:cursor-pointer file:rounded-md file:border file:border-border file:bg-surface file:px-3 file:text-sm file:font-medium file:text-text hover:file:bg-surface-muted"
        />
      </label>
      <p className="text-xs text-muted">
        {mayImport.ok
          ? "A .ts file, a zipped project or a JSON bundle; it replaces the definitions as a new version."
          : mayImport.reason}
      </p>
      {state.kind === "importing" && <p className="text-sm text-muted">Importing {state.fileName}…</p>}
      {state.kind === "imported" && (
        <p role="status" className="text-sm">
          Imported {state.fileName} as version {state.version}.
        </p>
      )}
      {state.kind === "failed" && (
        <div
          role="alert"
          className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-sm text-danger"
        >
          {/* With problems listed below, the server's one-line summary (their first) would repeat one. */}
          <p>
            {state.diagnostics.length > 0
              ? `Not imported: ${state.diagnostics.length} ${state.diagnostics.length === 1 ? "problem" : "problems"}.`
              : state.message}
          </p>
          {state.diagnostics.length > 0 && (
            <ul aria-label="Import problems" className="mt-1 list-disc pl-5">
              {state.diagnostics.map((diagnostic) => (
                <li key={`${diagnosticLocation(diagnostic)}|${diagnostic.code ?? ""}|${diagnostic.message}`}>
                  <span className="font-mono">{diagnosticLocation(diagnostic)}</span> {diagnostic.severity}:{" "}
                  {diagnostic.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
