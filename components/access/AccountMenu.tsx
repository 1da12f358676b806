"use client";
// The header's right end: who is signed in (an admin badge and the Users page for admins) and Sign
// out. Without accounts (the local default) it shows nothing at all.
import Link from "next/link";
import { useState } from "react";
import { createAccessClient } from "@/lib/api/access-client";
import { Button } from "../ui/Button";
import { refreshAccountSession, useAccountSession } from "./useAccountSession";

const access = createAccessClient();

export function AccountMenu() {
  const state = useAccountSession();
  const [signingOut, setSigningOut] = useState(false);
  if (state.status !== "ready" || !state.session.user) return null;
  const user = state.session.user;

  async function signOut() {
    setSigningOut(true);
    try {
      await access.auth.logout();
    } finally {
      refreshAccountSession();
      window.location.assign("/login");
    }
  }

  return (
    <div className="ml-auto flex shrink-0 items-center gap-2 text-sm" data-testid="account-menu">
      {user.admin ? (
        <Link href="/admin/users" className="text-muted hover:text-text hover:underline">
          Users
        </Link>
      ) : null}
      <span className="flex items-center gap-1.5" title={user.email}>
        <span
          aria-hidden="true"
          className="grid size-6 place-items-center rounded-full bg-surface-muted text-xs font-semibold uppercase"
        >
          {(user.name || user.email).slice(0, 1)}
        </span>
        <span className="max-w-48 truncate font-medium">
          <span className="sr-only">Signed in as </span>
          {user.name || user.email}
        </span>
        {user.admin ? (
          <span className="rounded bg-surface-muted px-1 text-[11px] font-semibold uppercase tracking-wide text-muted">
            admin
          </span>
        ) : null}
      </span>
      <Button size="compact" onClick={() => void signOut()} aria-busy={signingOut || undefined}>
        {signingOut ? "Signing out…" : "Sign out"}
      </Button>
    </div>
  );
}
