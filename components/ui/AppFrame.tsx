// The app chrome: a slim header with the logo, a breadcrumb (long names end in an ellipsis and show
// in full on hover; the current page's crumb is the last to shrink), who is signed in (with accounts)
// and the main area below it.
import Link from "next/link";
import type { ReactNode } from "react";
import { AccountMenu } from "../access/AccountMenu";
import { TandemMark } from "./Logo";

export interface Crumb {
  label: string;
  href?: string;
  /** Monospace, for ids. */
  mono?: boolean;
}

function CrumbItem({ crumb, current }: { crumb: Crumb; current: boolean }) {
  const classes = `block truncate ${crumb.mono ? "font-mono text-sm" : "font-medium"}`;
  return (
    // The page you are on keeps its crumb whole (up to a cap, then an ellipsis); the crumbs before it
    // (a long project name) give way first.
    <li
      className={`flex min-w-0 items-center gap-2 ${current ? "max-w-[min(24rem,40vw)] shrink-0" : "shrink"}`}
    >
      <span aria-hidden="true" className="text-muted">
        /
      </span>
      {crumb.href && !current ? (
        <Link href={crumb.href} title={crumb.label} className={`${classes} hover:underline`}>
          {crumb.label}
        </Link>
      ) : (
        <span title={crumb.label} aria-current={current ? "page" : undefined} className={classes}>
          {crumb.label}
        </span>
      )}
    </li>
  );
}

/** A link of the project's own navigation (overview, studio, evals), shown at the header's end. */
export interface Section {
  label: string;
  href: string;
  current?: boolean;
}

/**
 * The sections of a project: its page (threads, versions), the studio, its evals, analytics and
 * settings. A page inside none of them (a thread) passes no `current`.
 */
export function projectSections(
  projectId: string,
  current?: "overview" | "studio" | "evals" | "analytics" | "settings",
): Section[] {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  return [
    { label: "Overview", href: base, current: current === "overview" },
    { label: "Studio", href: `${base}/studio`, current: current === "studio" },
    { label: "Evals", href: `${base}/evals`, current: current === "evals" },
    { label: "Analytics", href: `${base}/analytics`, current: current === "analytics" },
    { label: "Settings", href: `${base}/settings/members`, current: current === "settings" },
  ];
}

export function AppFrame({
  children,
  crumbs = [],
  sections = [],
}: {
  children: ReactNode;
  crumbs?: Crumb[];
  sections?: Section[];
}) {
  return (
    <div className="flex min-h-full flex-col">
      <header className="flex h-11 min-w-0 items-center gap-2 border-b border-border bg-surface px-4">
        <Link href="/" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight">
          <TandemMark />
          Tandem
        </Link>
        {crumbs.length > 0 ? (
          <nav aria-label="Breadcrumb" className="min-w-0">
            <ol className="flex min-w-0 items-center gap-2">
              {crumbs.map((crumb, index) => (
                <CrumbItem
                  // biome-ignore lint/suspicious/noArrayIndexKey: a breadcrumb's position is its identity.
                  key={`${crumb.label}-${index}`}
                  crumb={crumb}
                  current={index === crumbs.length - 1}
                />
              ))}
            </ol>
          </nav>
        ) : null}
        <div className="ml-auto flex shrink-0 items-center gap-4">
          {sections.length > 0 ? (
            <nav aria-label="Project" className="shrink-0">
              <ul className="flex items-center gap-1 text-sm">
                {sections.map((section) => (
                  <li key={section.href}>
                    <Link
                      href={section.href}
                      aria-current={section.current ? "page" : undefined}
                      className={`rounded-md px-2 py-1 ${section.current ? "bg-surface-muted font-medium" : "text-muted hover:bg-surface-muted hover:text-text"}`}
                    >
                      {section.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <AccountMenu />
        </div>
      </header>
      <main className="flex-1">{children}</main>
    </div>
  );
}
