"use client";
// /setup: the first account, an admin (POST /api/auth/setup). From then on every page and route
// needs a signed-in session or a project key, so the form signs you in straight away.
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { createAccessClient } from "@/lib/api/access-client";
import { ApiError } from "@/lib/api/client";
import { Button } from "../ui/Button";
import { describeAccessError, FormError, TextField } from "./fields";
import { refreshAccountSession, useAccountSession } from "./useAccountSession";

const access = createAccessClient();

export function SetupForm() {
  const state = useAccountSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [alreadySetUp, setAlreadySetUp] = useState(false);

  if (state.status === "loading") {
    return (
      <p className="text-sm text-muted" aria-busy="true">
        Checking whether this server has accounts…
      </p>
    );
  }
  if (alreadySetUp || (state.status === "ready" && state.session.accounts)) {
    return (
      <div className="flex flex-col gap-3 text-sm">
        <p>
          Accounts are already set up on this server. Sign in, or ask an admin to create an account for you.
        </p>
        <Link href="/login" className="underline">
          Go to sign in
        </Link>
      </div>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      name: String(form.get("name") ?? "").trim(),
      email: String(form.get("email") ?? "").trim(),
      password: String(form.get("password") ?? ""),
    };
    if (input.password !== String(form.get("confirm") ?? "")) {
      setError("The two passwords differ: type the same password twice.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await access.auth.setup(input);
      await access.auth.login({ email: input.email, password: input.password });
      refreshAccountSession();
      window.location.assign("/");
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) setAlreadySetUp(true);
      else setError(describeAccessError(caught));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Create the first admin">
      {state.status === "error" ? (
        <FormError message={`Could not check the server: ${state.message}`} />
      ) : null}
      <TextField label="Name" name="name" autoComplete="name" required maxLength={200} />
      <TextField label="Email" name="email" type="email" autoComplete="username" required maxLength={320} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={1024}
        hint="At least 8 characters; a passphrase is best."
      />
      <TextField
        label="Confirm password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
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
        {busy ? "Creating the admin account…" : "Create admin and sign in"}
      </Button>
    </form>
  );
}
