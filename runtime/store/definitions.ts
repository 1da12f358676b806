// Loads the bundle of a pinned project version. Versions are immutable, so they are cached forever
// (per process, bounded) once read.
import type { SqlExecutor } from "@/lib/db/sql-client";
import { type Bundle, type BundleIndex, indexBundle } from "@/lib/standard";

export interface LoadedDefinitions {
  bundle: Bundle;
  index: BundleIndex;
  /** The version's definition errors (its diagnostics of severity "error"): a version with any cannot run. */
  errors?: readonly VersionDiagnostic[];
}

export interface VersionDiagnostic {
  severity: string;
  path: string;
  message: string;
}

const MAX_CACHED_VERSIONS = 200;

export class DefinitionsCache {
  private readonly cache = new Map<string, Promise<LoadedDefinitions | null>>();

  constructor(private readonly db: SqlExecutor) {}

  load(projectId: string, version: number): Promise<LoadedDefinitions | null> {
    const key = `${projectId}@${version}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = this.read(projectId, version);
      this.cache.set(key, entry);
      entry.then((value) => value === null && this.cache.delete(key)).catch(() => this.cache.delete(key));
      if (this.cache.size > MAX_CACHED_VERSIONS) this.cache.delete(this.cache.keys().next().value as string);
    }
    return entry;
  }

  private async read(projectId: string, version: number): Promise<LoadedDefinitions | null> {
    // A version never changes once saved, its diagnostics neither: both are read once.
    const rows = await this.db.query<{ definitions: unknown; diagnostics: unknown }>(
      "SELECT definitions, diagnostics FROM project_versions WHERE project_id = $1 AND version = $2",
      [projectId, version],
    );
    if (!rows[0]) return null;
    const json = (raw: unknown) => (typeof raw === "string" ? JSON.parse(raw) : raw);
    const bundle = json(rows[0].definitions) as Bundle;
    const diagnostics = (json(rows[0].diagnostics) ?? []) as VersionDiagnostic[];
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error");
    return { bundle, index: indexBundle(bundle), errors };
  }
}
