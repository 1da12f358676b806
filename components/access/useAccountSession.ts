"use client";
// Who is signed in, asked once per page load and shared by every component that needs it (the
// header, the setup offer, role-aware controls). `refreshAccountSession` asks again after a change.
import { useEffect, useState } from "react";
import { createAccessClient } from "@/lib/api/access-client";
import type { AccountSession } from "@/lib/api/access-schemas";

const access = createAccessClient();

export type SessionState =
  | { status: "loading" }
  | { status: "ready"; session: AccountSession }
  | { status: "error"; message: string };

let pending: Promise<AccountSession> | null = null;
const listeners = new Set<() => void>();

function loadSession(): Promise<AccountSession> {
  pending ??= access.auth.session();
  return pending;
}

export function refreshAccountSession(): void {
  pending = null;
  for (const listener of listeners) listener();
}

export function useAccountSession(): SessionState {
  const [state, setState] = useState<SessionState>({ status: "loading" });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const listener = () => setGeneration((value) => value + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the refresh signal.
  useEffect(() => {
    let live = true;
    loadSession().then(
      (session) => live && setState({ status: "ready", session }),
      (error: unknown) =>
        live &&
        setState({ status: "error", message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [generation]);
  return state;
}
