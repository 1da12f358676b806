"use client";
// What /login offers: email and password once this server has accounts; the API token form (the
// server-rendered `tokenForm`) when TANDEM_API_TOKEN is set and no accounts exist, or folded away
// below the email form when both are in use; nothing to do when neither is.
import type { ReactNode } from "react";
import { SignInForm } from "./SignInForm";
import { useAccountSession } from "./useAccountSession";

export function LoginChoices({
  next,
  tokenRequired,
  tokenForm,
}: {
  next: string;
  tokenRequired: boolean;
  tokenForm: ReactNode;
}) {
  const state = useAccountSession();
  if (state.status === "loading") {
    return (
      <p className="text-sm text-muted" aria-busy="true">
        Checking how this server signs you in…
      </p>
    );
  }
  const accounts = state.status === "ready" && state.session.accounts;
  if (!accounts) {
    return (
      <>
        <p className="mb-4 text-sm text-muted">
          {tokenRequired ? (
            <>
              This server is protected by an API token. Enter the value of <code>TANDEM_API_TOKEN</code> to
              continue; your browser keeps a session cookie for a week.
            </>
          ) : (
            "This server has no API token and no accounts configured, so no sign-in is needed."
          )}
        </p>
        {tokenForm}
      </>
    );
  }
  return (
    <>
      <p className="mb-4 text-sm text-muted">Sign in with your Tandem account.</p>
      <SignInForm next={next} />
      {tokenRequired ? (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer text-muted">Sign in with the server's API token instead</summary>
          <div className="mt-3">{tokenForm}</div>
        </details>
      ) : null}
    </>
  );
}
