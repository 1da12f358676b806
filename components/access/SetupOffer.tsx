"use client";
// The one-time offer to set up accounts, on the home page of a server without any: a link to /setup
// and "Not now", which this browser remembers. It never blocks anything — the local default needs
// no sign-in.
import Link from "next/link";
import { useEffect, useState } from "react";
import { Button, buttonClasses } from "../ui/Button";
import { useAccountSession } from "./useAccountSession";

export const SETUP_OFFER_DISMISSED_KEY = "tandem.setupOffer.dismissed";

export function SetupOffer() {
  const state = useAccountSession();
  // Unknown until the browser's storage has been read (no flash of the offer after "Not now").
  const [dismissed, setDismissed] = useState<boolean | null>(null);
  useEffect(() => {
    setDismissed(window.localStorage.getItem(SETUP_OFFER_DISMISSED_KEY) === "1");
  }, []);
  if (dismissed !== false || state.status !== "ready" || state.session.accounts) return null;

  function dismiss() {
    window.localStorage.setItem(SETUP_OFFER_DISMISSED_KEY, "1");
    setDismissed(true);
  }

  return (
    <section
      aria-label="Set up accounts"
      className="flex flex-wrap items-center gap-3 rounded-md border border-border bg-surface px-4 py-3"
    >
      <div className="min-w-0 flex-1">
        <p className="font-medium">Sharing this server with a team?</p>
        <p className="text-sm text-muted">
          Set up accounts to give each person a role per project, issue project API keys and keep an audit
          log. Until then, anyone who can reach this server can do everything.
        </p>
      </div>
      <Link href="/setup" className={buttonClasses("primary")}>
        Set up accounts
      </Link>
      <Button onClick={dismiss}>Not now</Button>
    </section>
  );
}
