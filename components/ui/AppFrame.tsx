// The app chrome: a slim header with the product name and the main area below it.
import Link from "next/link";
import type { ReactNode } from "react";

export function AppFrame({ children, title }: { children: ReactNode; title?: ReactNode }) {
  return (
    <div className="flex min-h-full flex-col">
      <header className="flex h-11 items-center gap-3 border-b border-border bg-surface px-4">
        <Link href="/" className="font-semibold tracking-tight">
          Tandem
        </Link>
        {title ? <span className="text-muted">/</span> : null}
        {title}
      </header>
      <main className="flex-1">{children}</main>
    </div>
  );
}
