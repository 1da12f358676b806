"use client";
// Project credentials: secrets (provider API keys, HTTP tool headers) stored encrypted on the server.
// Only names and dates come back; a value is typed once and never shown again. Add, replace, delete
// (owners only); a model uses one by name with `apiKeyCredential`.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { createAccessClient } from "@/lib/api/access-client";
import type { CredentialView } from "@/lib/api/access-schemas";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "./ConfirmDialog";
import { describeAccessError, FormError, TextField } from "./fields";
import { formatWhen } from "./format";
import { Gated } from "./Gated";
import { EmptyState, LoadFailed, LoadingRows } from "./PanelStates";
import { permission } from "./permission";
import { useProjectAccess } from "./useProjectAccess";

const access = createAccessClient();

/** A credential's name: what `apiKeyCredential` refers to (letters, digits, `_`, `-`, `.`). */
export const CREDENTIAL_NAME_PATTERN = "[A-Za-z0-9_.\\-]{1,100}";

type Load =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; credentials: CredentialView[] };

export function CredentialsPanel({ projectId }: { projectId: string }) {
  const projectAccess = useProjectAccess(projectId);
  const manage = permission(projectAccess, "manageCredentials");
  const listing = permission(projectAccess, "listCredentials");
  const reason = manage.ok ? null : manage.reason;
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [replacing, setReplacing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setLoad({ status: "ready", credentials: await access.credentials.list(projectId) });
    } catch (caught) {
      setLoad({ status: "failed", message: describeAccessError(caught) });
    }
  }, [projectId]);
  useEffect(() => {
    if (listing.ok) void refresh();
  }, [refresh, listing.ok]);

  if (!listing.ok)
    return (
      <EmptyState title="Only editors and owners see this project's credentials">{listing.reason}</EmptyState>
    );

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted">
        Secrets this project's models and tools use, encrypted at rest. A model names one with{" "}
        <code>apiKeyCredential</code> (the studio's model inspector offers them). Values are never shown
        again, sent to a model, exported or logged.
      </p>
      <CredentialForm
        key={replacing ?? "new"}
        fixedName={replacing}
        reason={reason}
        onCancel={replacing ? () => setReplacing(null) : undefined}
        onSave={async (name, value) => {
          await access.credentials.put(projectId, name, value);
          setNotice(replacing ? `Replaced the value of “${name}”.` : `Saved “${name}”.`);
          setReplacing(null);
          await refresh();
        }}
      />
      {notice ? (
        <p role="status" className="text-sm text-muted">
          {notice}
        </p>
      ) : null}
      {load.status === "loading" ? <LoadingRows label="Loading credentials…" /> : null}
      {load.status === "failed" ? (
        <LoadFailed what="the credentials" message={load.message} onRetry={() => void refresh()} />
      ) : null}
      {load.status === "ready" && load.credentials.length === 0 ? (
        <EmptyState title="No credentials yet">
          Add a provider key (e.g. <code>openai</code>) so this project's models stop depending on the
          server's environment.
        </EmptyState>
      ) : null}
      {load.status === "ready" && load.credentials.length > 0 ? (
        <table className="w-full text-sm" aria-label="Credentials">
          <thead className="text-left text-xs text-muted">
            <tr>
              <th className="py-1 font-medium">Name</th>
              <th className="py-1 font-medium">Created</th>
              <th className="py-1 font-medium">Updated</th>
              <th className="py-1">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {load.credentials.map((credential) => (
              <tr key={credential.name} className="border-t border-border">
                <td className="py-2 pr-3 font-mono">{credential.name}</td>
                <td className="py-2 pr-3 whitespace-nowrap">{formatWhen(credential.created_at)}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {formatWhen(credential.updated_at ?? credential.created_at)}
                </td>
                <td className="py-2 text-right whitespace-nowrap">
                  <Gated reason={reason}>
                    <Button
                      size="compact"
                      disabled={reason !== null}
                      onClick={() => setReplacing(credential.name)}
                    >
                      Replace<span className="sr-only"> {credential.name}</span>
                    </Button>
                  </Gated>{" "}
                  <Gated reason={reason}>
                    <Button
                      size="compact"
                      tone="danger"
                      disabled={reason !== null}
                      onClick={() => setDeleting(credential.name)}
                    >
                      Delete<span className="sr-only"> {credential.name}</span>
                    </Button>
                  </Gated>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete credential"
        body={`Models and tools that name “${deleting}” fail until it is added again.`}
        confirmLabel="Delete credential"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await access.credentials.remove(projectId, deleting);
          setNotice(`Deleted “${deleting}”.`);
          await refresh();
        }}
      />
    </div>
  );
}

export function CredentialForm({
  fixedName,
  reason,
  onSave,
  onCancel,
}: {
  /** Replacing this credential's value (its name cannot change). */
  fixedName: string | null;
  reason: string | null;
  onSave(name: string, value: string): Promise<void>;
  onCancel?(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = fixedName ?? String(form.get("name") ?? "").trim();
    const value = String(form.get("value") ?? "");
    if (!name) return setError("Name the credential (e.g. openai).");
    if (!value) return setError("Paste the secret value.");
    setBusy(true);
    setError(null);
    try {
      await onSave(name, value);
      formElement.reset();
    } catch (caught) {
      setError(describeAccessError(caught));
    } finally {
      setBusy(false);
    }
  }
  const disabled = reason !== null || busy;
  return (
    <form
      onSubmit={submit}
      aria-label={fixedName ? `Replace ${fixedName}` : "Add credential"}
      className="flex flex-col gap-3 rounded-md border border-border bg-surface p-3"
    >
      <h2 className="text-sm font-semibold">{fixedName ? `Replace “${fixedName}”` : "Add a credential"}</h2>
      <div className="grid gap-3 sm:grid-cols-[14rem_minmax(0,1fr)]">
        {fixedName ? null : (
          <TextField
            label="Name"
            name="name"
            placeholder="openai"
            pattern={CREDENTIAL_NAME_PATTERN}
            title="Letters, digits, _ - and . (up to 100)"
            maxLength={100}
            disabled={disabled}
          />
        )}
        <TextField
          label={fixedName ? "New value" : "Value"}
          name="value"
          type="password"
          autoComplete="off"
          placeholder="sk-…"
          maxLength={16384}
          disabled={disabled}
          hint="Stored encrypted; never shown again."
        />
      </div>
      <FormError message={error} />
      <div className="flex gap-2">
        <Gated reason={reason}>
          <Button tone="primary" type="submit" disabled={disabled} aria-busy={busy || undefined}>
            {busy ? "Saving…" : fixedName ? "Replace value" : "Add credential"}
          </Button>
        </Gated>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
      </div>
    </form>
  );
}
