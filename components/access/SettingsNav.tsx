"use client";
// The tabs of a project's settings: Members, API keys, Credentials, Audit (links, the current one
// marked for screen readers too).
import Link from "next/link";
import { usePathname } from "next/navigation";

export const SETTINGS_TABS = [
  { slug: "members", label: "Members" },
  { slug: "keys", label: "API keys" },
  { slug: "credentials", label: "Credentials" },
  { slug: "audit", label: "Audit" },
] as const;

export function SettingsNav({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Project settings" className="flex gap-1 border-b border-border">
      {SETTINGS_TABS.map((tab) => {
        const href = `/projects/${projectId}/settings/${tab.slug}`;
        const current = pathname === href;
        return (
          <Link
            key={tab.slug}
            href={href}
            aria-current={current ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${current ? "border-accent text-text" : "border-transparent text-muted hover:text-text"}`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
