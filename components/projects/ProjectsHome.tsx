"use client";
// The project list: create, open, rename and delete projects through the HTTP API. "Create project"
// says what it is doing from the click until the studio is on screen (creating, then opening the
// studio); in `npm run dev` the studio route is warmed up after the list loads (warm-studio.ts).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useCallback, useEffect, useRef, useState, useTransition } from "react";
import { ApiError, createApiClient } from "@/lib/api/client";
import type { ProjectSummary } from "@/lib/contracts/project";
import { Button } from "../ui/Button";
import { useHydrated } from "../ui/useHydrated";
import { ProjectRow } from "./ProjectRow";
import { warmStudioRoute } from "./warm-studio";

const api = createApiClient();

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function ProjectsHome() {
  const router = useRouter();
  const [projects, setProjects] = useState<ProjectSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const focusRowAfterDelete = useRef<number | null>(null);
  // After a delete has been rendered: the row that took the deleted one's place (or the one before
  // it) takes the focus, else the new project's name, never the top of the page.
  useEffect(() => {
    const index = focusRowAfterDelete.current;
    if (index === null || projects === null) return;
    focusRowAfterDelete.current = null;
    const rows = listRef.current?.querySelectorAll<HTMLElement>(":scope > li") ?? [];
    const row = rows[Math.min(Math.max(index, 0), rows.length - 1)];
    const next = row?.querySelector<HTMLElement>('button[aria-label^="Delete "]');
    (next ?? document.getElementById("new-project-name"))?.focus();
  }, [projects]);
  const [newName, setNewName] = useState("");
  const [creating, setCreating] = useState(false);
  const hydrated = useHydrated();
  // True from router.push to the studio until the studio is rendered.
  const [opening, startOpening] = useTransition();
  useEffect(() => {
    warmStudioRoute(process.env.NODE_ENV, (path) => fetch(path, { credentials: "same-origin" }));
  }, []);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setProjects(await api.projects.list());
    } catch (error) {
      setLoadError(describeError(error));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function createProject(event: FormEvent) {
    event.preventDefault();
    if (creating || opening) return;
    const name = newName.trim();
    if (!name) {
      setActionError("Give the new project a name.");
      return;
    }
    setCreating(true);
    setActionError(null);
    try {
      const project = await api.projects.create(name);
      setProjects((current) => [project, ...(current ?? [])]);
      setNewName("");
      // A new project is empty: the next thing to do is to draw it (or apply a template). The button
      // stays busy ("Opening the studio…") until the studio is on screen.
      startOpening(() => router.push(`/projects/${project.id}/studio`));
    } catch (error) {
      setActionError(describeError(error));
    } finally {
      setCreating(false);
    }
  }

  /** Answers why the rename failed (the row shows it beside its field), or null once renamed. */
  async function renameProject(id: string, name: string): Promise<string | null> {
    try {
      const renamed = await api.projects.rename(id, name);
      setProjects((current) => (current ?? []).map((project) => (project.id === id ? renamed : project)));
      return null;
    } catch (error) {
      return describeError(error);
    }
  }

  async function deleteProject(id: string) {
    setActionError(null);
    try {
      await api.projects.remove(id);
      // The row and its focused button go: once the list without it is on screen (the effect
      // below), the focus goes to the row that took its place.
      focusRowAfterDelete.current = (projects ?? []).findIndex((project) => project.id === id);
      setProjects((current) => (current ?? []).filter((project) => project.id !== id));
    } catch (error) {
      setActionError(describeError(error));
    }
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-5 px-6 py-8">
      <div>
        <h1 className="text-xl font-semibold">Projects</h1>
        <p className="text-muted">
          Each project holds agents, prompts, tools and models, saved as immutable versions.
        </p>
      </div>

      <form onSubmit={createProject} className="flex gap-2" aria-label="Create project">
        <label htmlFor="new-project-name" className="sr-only">
          New project name
        </label>
        <input
          id="new-project-name"
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          placeholder="New project name"
          maxLength={200}
          className="h-8 flex-1 rounded-md border border-border bg-surface px-2.5 outline-none focus:border-accent"
        />
        {/* Busy, not disabled: it keeps its colour (legible) while a second click does nothing. */}
        <Button
          type="submit"
          tone="primary"
          // Until hydrated the form has no handler: a click would reload the page, losing the name.
          disabled={!hydrated}
          aria-disabled={creating || opening || undefined}
          aria-busy={creating || opening || undefined}
          className={creating || opening ? "cursor-progress" : ""}
        >
          {creating || opening ? (
            <span
              aria-hidden
              className="mr-1.5 inline-block size-3 animate-spin rounded-full border-2 border-current border-t-transparent"
            />
          ) : null}
          {creating ? "Creating…" : opening ? "Opening the studio…" : "Create project"}
        </Button>
      </form>

      {actionError ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger">
          {actionError}
        </p>
      ) : null}

      {loadError ? (
        <div
          role="alert"
          className="flex items-center justify-between rounded-md border border-danger/40 px-3 py-2"
        >
          <span className="text-danger">Could not load projects: {loadError}</span>
          <Button onClick={() => void load()}>Retry</Button>
        </div>
      ) : projects === null ? (
        <p className="text-muted" aria-live="polite">
          Loading projects…
        </p>
      ) : projects.length === 0 ? (
        <div className="rounded-lg border border-dashed border-border px-6 py-10 text-center">
          <p className="font-medium">No projects yet</p>
          <p className="text-muted">Name your first project above and press “Create project”.</p>
        </div>
      ) : (
        <ul
          ref={listRef}
          aria-label="Projects"
          className="divide-y divide-border rounded-lg border border-border bg-surface"
        >
          {projects.map((project) => (
            <ProjectRow
              key={project.id}
              project={project}
              onRename={renameProject}
              onDelete={deleteProject}
            />
          ))}
        </ul>
      )}
      <p className="text-xs text-muted">
        API:{" "}
        <Link href="/api/projects" className="underline">
          /api/projects
        </Link>
      </p>
    </div>
  );
}
