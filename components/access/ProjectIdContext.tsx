"use client";
// Which project the studio is editing, for controls deep in the inspector that ask the project's
// access routes (the model inspector's credential picker). Null outside a project (tests render
// inspectors alone).
import { createContext, type ReactNode, useContext } from "react";

const ProjectIdContext = createContext<string | null>(null);

export function ProjectIdProvider({ projectId, children }: { projectId: string; children: ReactNode }) {
  return <ProjectIdContext.Provider value={projectId}>{children}</ProjectIdContext.Provider>;
}

export function useProjectId(): string | null {
  return useContext(ProjectIdContext);
}
