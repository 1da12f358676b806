// The pages' side of access control (docs/security.md): once accounts exist (or behind
// TANDEM_API_TOKEN), a page needs a signed-in user or the token's session, else it redirects to
// /login; a project's or a thread's page needs a role on its project (else not found). proxy.ts
// marks the pages it matched with PAGE_PATH_HEADER; /login and static files are never gated.
import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getRuntime } from "@/runtime/runtime";
import { configuredApiToken } from "@/runtime/security/api-token";

export const PAGE_PATH_HEADER = "x-tandem-page";

const UNGATED = /^\/(setup|login)(\/|\?|$)/;

export async function gatePage(): Promise<void> {
  const requestHeaders = await headers();
  const path = requestHeaders.get(PAGE_PATH_HEADER);
  if (path === null || UNGATED.test(path)) return;
  const runtime = await getRuntime();
  const accounts = await runtime.access.accountsOn();
  if (!accounts && !configuredApiToken()) return;
  const { principal } = await runtime.access.authenticate(requestHeaders);
  if (!principal || principal.type === "key" || (principal.type === "user" && !accounts)) {
    redirect(`/login?next=${encodeURIComponent(path)}`);
  }
  const pathname = path.split("?")[0] ?? path;
  const project = /^\/projects\/([^/]+)/.exec(pathname)?.[1];
  const thread = /^\/threads\/([^/]+)/.exec(pathname)?.[1];
  let projectId: string | null | undefined = project ? decodeURIComponent(project) : undefined;
  if (!projectId && thread && thread !== "diff")
    projectId = await runtime.access.threadProject(decodeURIComponent(thread));
  if (projectId && !(await runtime.access.canView(principal, projectId))) notFound();
}
