"use client";
// Sign in with email and password (POST /api/auth/login), shown on /login once this server has
// accounts; then on to the page that sent you here. Too many failures answer 429 and say so.
import { type FormEvent, useState } from "react";
import { createAccessClient } from "@/lib/api/access-client";
import { ApiError } from "@/lib/api/client";
import { Button } from "../ui/Button";
import { FormError, TextField } from "./fields";
import { refreshAccountSession } from "./useAccountSession";

const access = createAccessClient();

function signInError(error: unknown): string {
  if (error instanceof ApiError && error.status === 429)
    return "Too many failed sign-ins: wait a few minutes before trying again.";
  if (error instanceof ApiError && (error.status === 401 || error.status === 400 || error.status === 403))
    return "That email and password do not match an account. Check both and try again.";
  return error instanceof Error ? error.message : String(error);
}

export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await access.auth.login({
        email: String(form.get("email") ?? "").trim(),
        password: String(form.get("password") ?? ""),
      });
      refreshAccountSession();
      window.location.assign(next);
    } catch (caught) {
      setError(signInError(caught));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Sign in with email">
      <TextField label="Email" name="email" type="email" autoComplete="username" required maxLength={320} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={1024}
      />
      <FormError message={error} />
      <Button
        tone="primary"
        type="submit"
        className="justify-center"
        aria-busy={busy || undefined}
        disabled={busy}
      >
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
