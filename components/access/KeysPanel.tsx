"use client";
// Project API keys: create one with a name and scopes (its secret is shown once, with a copy button),
// see when each was created and last used, revoke one after a confirmation. Owners only.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { KEY_SCOPES, type KeyScope, SCOPE_DESCRIPTIONS } from "@/lib/access/roles";
import { createAccessClient } from "@/lib/api/access-client";
import type { ApiKeyView } from "@/lib/api/access-schemas";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "./ConfirmDialog";
import { describeAccessError, FormError, TextField } from "./fields";
import { formatWhen } from "./format";
import { Gated } from "./Gated";
import { EmptyState, LoadFailed, LoadingRows } from "./PanelStates";
import { permission } from "./permission";
import { useProjectAccess } from "./useProjectAccess";

const access = createAccessClient();

type Load =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; keys: ApiKeyView[] };

export function KeysPanel({ projectId }: { projectId: string }) {
  const projectAccess = useProjectAccess(projectId);
  const manage = permission(projectAccess, "manageKeys");
  const listing = permission(projectAccess, "listKeys");
  const reason = manage.ok ? null : manage.reason;
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);

  const refresh = useCallback(async () => {
    setLoad({ status: "loading" });
    try {
      setLoad({ status: "ready", keys: await access.keys.list(projectId) });
    } catch (caught) {
      setLoad({ status: "failed", message: describeAccessError(caught) });
    }
  }, [projectId]);
  useEffect(() => {
    if (listing.ok) void refresh();
  }, [refresh, listing.ok]);

  if (!listing.ok)
    return <EmptyState title="Only owners see this project's API keys">{listing.reason}</EmptyState>;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted">
        A key lets a script, CI job or MCP client act on this project only, within its scopes. Send it as{" "}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      {created ? (
        <CreatedSecret name={created.name} secret={created.secret} onDone={() => setCreated(null)} />
      ) : (
        <CreateKeyForm
          reason={reason}
          onCreate={async (name, scopes) => {
            const result = await access.keys.create(projectId, name, scopes);
            setCreated({ name: result.key.name, secret: result.secret });
            setLoad((current) => ({
              status: "ready",
              keys: [result.key, ...(current.status === "ready" ? current.keys : [])],
            }));
          }}
        />
      )}
      {load.status === "loading" ? <LoadingRows label="Loading API keys…" /> : null}
      {load.status === "failed" ? (
        <LoadFailed what="the API keys" message={load.message} onRetry={() => void refresh()} />
      ) : null}
      {load.status === "ready" && load.keys.length === 0 ? (
        <EmptyState title="No API keys yet">
          Create one above for a script or an MCP client (Claude Desktop, Cursor) that should reach only this
          project.
        </EmptyState>
      ) : null}
      {load.status === "ready" && load.keys.length > 0 ? (
        <table className="w-full text-sm" aria-label="API keys">
          <thead className="text-left text-xs text-muted">
            <tr>
              <th className="py-1 font-medium">Name</th>
              <th className="py-1 font-medium">Scopes</th>
              <th className="py-1 font-medium">Created</th>
              <th className="py-1 font-medium">Last used</th>
              <th className="py-1">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {load.keys.map((key) => (
              <tr key={key.id} className="border-t border-border">
                <td className="py-2 pr-3 font-medium">{key.name}</td>
                <td className="py-2 pr-3">
                  <span className="flex flex-wrap gap-1">
                    {key.scopes.map((scope) => (
                      <span key={scope} className="rounded bg-surface-muted px-1.5 font-mono text-xs">
                        {scope}
                      </span>
                    ))}
                  </span>
                </td>
                <td className="py-2 pr-3 whitespace-nowrap">{formatWhen(key.created_at)}</td>
                <td className="py-2 pr-3 whitespace-nowrap">{formatWhen(key.last_used_at, "never")}</td>
                <td className="py-2 text-right">
                  <Gated reason={reason}>
                    <Button
                      size="compact"
                      tone="danger"
                      disabled={reason !== null}
                      onClick={() => setRevoking(key)}
                    >
                      Revoke<span className="sr-only"> {key.name}</span>
                    </Button>
                  </Gated>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke API key"
        body={`Anything using “${revoking?.name}” is refused from now on (401). This cannot be undone: create a new key to give access again.`}
        confirmLabel="Revoke key"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await access.keys.revoke(projectId, revoking.id);
          setLoad((current) => ({
            status: "ready",
            keys: (current.status === "ready" ? current.keys : []).filter((key) => key.id !== revoking.id),
          }));
        }}
      />
    </div>
  );
}

function CreateKeyForm({
  reason,
  onCreate,
}: {
  reason: string | null;
  onCreate(name: string, scopes: KeyScope[]): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const scopes = KEY_SCOPES.filter((scope) => form.get(`scope-${scope}`) === "on");
    if (!name) return setError("Name the key after what will use it (e.g. “CI”).");
    if (scopes.length === 0) return setError("Choose at least one scope.");
    setBusy(true);
    setError(null);
    try {
      await onCreate(name, scopes);
    } catch (caught) {
      setError(describeAccessError(caught));
      setBusy(false);
    }
  }
  const disabled = reason !== null || busy;
  return (
    <form
      onSubmit={submit}
      aria-label="Create API key"
      className="flex flex-col gap-3 rounded-md border border-border bg-surface p-3"
    >
      <h2 className="text-sm font-semibold">Create an API key</h2>
      <TextField
        label="Name"
        name="name"
        placeholder="e.g. CI or Claude Desktop"
        maxLength={200}
        disabled={disabled}
      />
      <fieldset className="flex flex-col gap-1 text-sm" disabled={disabled}>
        <legend className="mb-1 font-medium">Scopes</legend>
        {KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex items-start gap-2">
            <input
              type="checkbox"
              name={`scope-${scope}`}
              defaultChecked={scope === "read"}
              className="mt-0.5"
            />
            <span>
              <span className="font-mono">{scope}</span>{" "}
              <span className="text-muted">— {SCOPE_DESCRIPTIONS[scope]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <FormError message={error} />
      <div>
        <Gated reason={reason}>
          <Button tone="primary" type="submit" disabled={disabled} aria-busy={busy || undefined}>
            {busy ? "Creating…" : "Create key"}
          </Button>
        </Gated>
      </div>
    </form>
  );
}

function CreatedSecret({ name, secret, onDone }: { name: string; secret: string; onDone(): void }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }
  return (
    <section
      aria-label="New API key"
      className="flex flex-col gap-2 rounded-md border border-warning/60 bg-warning/5 p-3 text-sm"
    >
      <h2 className="font-semibold">Key “{name}” created</h2>
      <p role="status">
        <strong>Copy it now: you won't see it again.</strong> Tandem keeps only a hash of it; if you lose it,
        revoke it and create another.
      </p>
      <div className="flex items-center gap-2">
        <code
          data-testid="new-key-secret"
          className="min-w-0 flex-1 select-all break-all rounded border border-border bg-surface px-2 py-1.5 font-mono text-xs"
        >
          {secret}
        </code>
        <Button onClick={() => void copy()}>{copied === "yes" ? "Copied" : "Copy"}</Button>
      </div>
      {copied === "failed" ? (
        <p className="text-danger">The browser refused the clipboard: select the key and copy it.</p>
      ) : null}
      <div>
        <Button tone="primary" onClick={onDone}>
          I have copied it
        </Button>
      </div>
    </section>
  );
}
