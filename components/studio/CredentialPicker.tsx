"use client";
// The model inspector's API key credential: pick one of the project's stored credentials by name
// (`apiKeyCredential`), or none to use the env variable. An owner can add one here without leaving
// the studio; the value goes to the server and is never shown again.
import { useCallback, useEffect, useState } from "react";
import { CredentialForm } from "@/components/access/CredentialsPanel";
import { Gated } from "@/components/access/Gated";
import { useProjectId } from "@/components/access/ProjectIdContext";
import { permission } from "@/components/access/permission";
import { useProjectAccess } from "@/components/access/useProjectAccess";
import { Button } from "@/components/ui/Button";
import { Dialog, DialogHeader } from "@/components/ui/Dialog";
import { createAccessClient } from "@/lib/api/access-client";
import { SelectField } from "./fields";

const access = createAccessClient();

export function CredentialPicker({
  value,
  onChange,
  errors,
  warnings,
}: {
  value: string;
  onChange(value: string): void;
  errors?: string[];
  warnings?: string[];
}) {
  const projectId = useProjectId();
  const listing = permission(useProjectAccess(projectId ?? ""), "listCredentials");
  const [names, setNames] = useState<string[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const load = useCallback(async () => {
    if (!projectId || !listing.ok) return;
    try {
      setNames((await access.credentials.list(projectId)).map((credential) => credential.name));
      setFailed(null);
    } catch (error) {
      setFailed(error instanceof Error ? error.message : String(error));
    }
  }, [projectId, listing.ok]);
  useEffect(() => {
    void load();
  }, [load]);

  const options = [
    { value: "", label: "None (use the env variable)" },
    ...(names ?? []).map((name) => ({ value: name, label: name })),
  ];
  const hint = !listing.ok
    ? listing.reason
    : failed !== null
      ? `Could not list the project's credentials: ${failed}`
      : names === null
        ? "Loading the project's credentials…"
        : names.length === 0
          ? "No credentials in this project yet: add one, or use the env variable."
          : "A credential stored (encrypted) in this project; it takes the env variable's place.";
  return (
    <div className="flex flex-col gap-1">
      <SelectField
        field="model.apiKeyCredential"
        label="API key credential"
        hint={hint}
        options={options}
        value={value}
        onChange={onChange}
        errors={errors}
        warnings={warnings}
      />
      {projectId ? (
        <AddCredential
          projectId={projectId}
          open={adding}
          setOpen={setAdding}
          onAdded={async (name) => {
            await load();
            onChange(name);
          }}
        />
      ) : null}
    </div>
  );
}

function AddCredential({
  projectId,
  open,
  setOpen,
  onAdded,
}: {
  projectId: string;
  open: boolean;
  setOpen(open: boolean): void;
  onAdded(name: string): Promise<void>;
}) {
  const allowed = permission(useProjectAccess(projectId), "manageCredentials");
  const reason = allowed.ok ? null : allowed.reason;
  return (
    <>
      <div>
        <Gated reason={reason}>
          <Button size="compact" disabled={reason !== null} onClick={() => setOpen(true)}>
            Add credential…
          </Button>
        </Gated>
      </div>
      <Dialog open={open} label="Add credential" onClose={() => setOpen(false)} className="w-[36rem]">
        <DialogHeader title="Add a credential to this project" onClose={() => setOpen(false)} />
        <div className="p-4">
          <CredentialForm
            fixedName={null}
            reason={reason}
            onCancel={() => setOpen(false)}
            onSave={async (name, value) => {
              await access.credentials.put(projectId, name, value);
              setOpen(false);
              await onAdded(name);
            }}
          />
        </div>
      </Dialog>
    </>
  );
}
