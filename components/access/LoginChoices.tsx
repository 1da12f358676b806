"use client";
// What /login offers: email and password once this server has accounts; the API token form (the
// server-rendered `tokenForm`) when TANDEM_API_TOKEN is set and no accounts exist, or folded away
// below the email form when both are in use; nothing to do when neither is. With accounts and an
// OpenID provider configured (TANDEM_OIDC_*; `oidcName` is its label), "Sign in with <name>" above
// the email form: a plain link to /api/auth/oidc/start, which sends the browser to the provider.
import type { ReactNode } from "react";
import { buttonClasses } from "@/components/ui/Button";
import { SignInForm } from "./SignInForm";
import { useAccountSession } from "./useAccountSession";

export function LoginChoices({
  next,
  tokenRequired,
  tokenForm,
  oidcName,
}: {
  next: string;
  tokenRequired: boolean;
  tokenForm: ReactNode;
  /** The OpenID provider's name when one is configured (server-side, from TANDEM_OIDC_NAME). */
  oidcName?: string | undefined;
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
      {oidcName ? (
        <>
          <a
            href={`/api/auth/oidc/start?next=${encodeURIComponent(next)}`}
            className={`${buttonClasses("secondary")} mt-2 w-full justify-center`}
          >
            Sign in with {oidcName}
          </a>
          <p className="my-4 flex items-center gap-2 text-xs text-muted" aria-hidden="true">
            <span className="h-px flex-1 bg-border" />
            or with email and password
            <span className="h-px flex-1 bg-border" />
          </p>
        </>
      ) : (
        <p className="mb-4 text-sm text-muted">Sign in with your Tandem account.</p>
      )}
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
