// The 404 page of every route: an unknown project or thread (`notFound()` in their pages), an
// address no page has, and one with a malformed percent-encoding (rewritten here by next.config.mjs).
import Link from "next/link";
import { AppFrame } from "@/components/ui/AppFrame";

export default function NotFound() {
  return (
    <AppFrame crumbs={[{ label: "Not found" }]}>
      <div className="mx-auto mt-16 max-w-md rounded-lg border border-border bg-surface p-6">
        <p className="mb-1 text-sm font-medium text-muted">404</p>
        <h1 className="mb-2 text-lg font-semibold">Nothing at this address</h1>
        <p className="mb-4 text-sm text-muted">
          The project or thread may have been deleted, or the address is mistyped or malformed (a{" "}
          <code>%</code> must start an escape such as <code>%20</code>).
        </p>
        <Link
          href="/"
          className="inline-flex h-8 items-center rounded-md bg-accent px-3 text-sm font-medium text-accent-contrast hover:opacity-90"
        >
          All projects
        </Link>
      </div>
    </AppFrame>
  );
}
