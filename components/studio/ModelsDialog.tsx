"use client";
// The models view: which providers this server can use (from its environment, by variable name),
// which the project's models use, and one click to move every model to a configured provider.
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Dialog, DialogHeader } from "@/components/ui/Dialog";
import { createApiClient } from "@/lib/api/client";
import type { ProviderStatus } from "@/lib/contracts/server";
import type { ModelProvider } from "@/lib/standard";
import {
  DEFAULT_PROVIDER_MODEL,
  modelNodes,
  runsOnDemoModels,
  switchAllModels,
} from "@/lib/studio/model-switch";
import { TextField } from "./fields";
import { useStudio, useStudioStore } from "./StudioStoreContext";

type Loaded =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; providers: ProviderStatus[] };

const PROVIDER_LABELS: Record<ModelProvider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  "openai-compatible": "OpenAI-compatible server (Ollama, vLLM, LM Studio…)",
  scripted: "Scripted demo models (no provider needed)",
};

function useProviders(open: boolean): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setLoaded({ state: "loading" });
    createApiClient()
      .providers.list()
      .then((providers) => !cancelled && setLoaded({ state: "ready", providers }))
      .catch((error: Error) => !cancelled && setLoaded({ state: "failed", message: error.message }));
    return () => {
      cancelled = true;
    };
  }, [open]);
  return loaded;
}

function DemoNotice({ providers }: { providers: ProviderStatus[] }) {
  const graph = useStudio((state) => state.history.present);
  if (!runsOnDemoModels(graph)) return null;
  const configured = providers.filter((provider) => provider.available && provider.provider !== "scripted");
  return (
    <p role="note" className="rounded border border-border bg-surface-muted px-3 py-2 text-xs">
      {configured.length === 0
        ? "This project runs on scripted demo models because no provider is configured on this server. Set OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_COMPATIBLE_BASE_URL in the server's environment and restart it to use real models."
        : "This project runs on scripted demo models. Switch them to a configured provider below."}
    </p>
  );
}

function ProjectModels() {
  const graph = useStudio((state) => state.history.present);
  const models = modelNodes(graph);
  if (models.length === 0) return <p className="text-xs text-muted">This project has no models yet.</p>;
  return (
    <ul aria-label="Project models" className="flex flex-col gap-0.5 text-xs">
      {models.map((node) => (
        <li key={node.id} className="flex justify-between gap-2">
          <span className="font-medium">{String(node.data.definition.name ?? "(unnamed)")}</span>
          <span className="text-muted">
            {String(node.data.definition.provider ?? "?")} · {String(node.data.definition.model ?? "?")}
          </span>
        </li>
      ))}
    </ul>
  );
}

function SwitchForm({ providers, onSwitched }: { providers: ProviderStatus[]; onSwitched(): void }) {
  const store = useStudioStore();
  const hasModels = useStudio((state) => modelNodes(state.history.present).length > 0);
  const firstReal = providers.find((provider) => provider.available && provider.provider !== "scripted");
  const [chosen, setChosen] = useState<ModelProvider>(
    (firstReal ?? providers.at(-1))?.provider ?? "scripted",
  );
  const [modelId, setModelId] = useState(DEFAULT_PROVIDER_MODEL[chosen]);
  const status = providers.find((provider) => provider.provider === chosen);
  const [baseURL, setBaseURL] = useState(status?.baseURL ?? "");

  const choose = (provider: ProviderStatus) => {
    setChosen(provider.provider);
    setModelId(DEFAULT_PROVIDER_MODEL[provider.provider]);
    setBaseURL(provider.baseURL ?? "");
  };
  const switchModels = () => {
    if (!status?.available || !modelId.trim()) return;
    const target = {
      provider: chosen,
      model: modelId.trim(),
      baseURL: chosen === "openai-compatible" ? baseURL.trim() || undefined : undefined,
      apiKeyEnv: status.apiKeyEnv,
    };
    const count = modelNodes(store.getState().history.present).length;
    store.getState().edit((document) => switchAllModels(document, target));
    store.getState().setStatus({
      tone: "info",
      text: `Switched ${count} model${count === 1 ? "" : "s"} to ${chosen} (${target.model}); undo switches them back.`,
    });
    onSwitched();
  };

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        switchModels();
      }}
    >
      <fieldset className="flex flex-col gap-1">
        <legend className="pb-1 text-xs font-semibold">Provider</legend>
        {providers.map((provider) => (
          <label
            key={provider.provider}
            className={`flex items-start gap-2 text-xs ${provider.available ? "" : "text-muted"}`}
          >
            <input
              type="radio"
              name="provider"
              value={provider.provider}
              checked={chosen === provider.provider}
              disabled={!provider.available}
              onChange={() => choose(provider)}
            />
            <span>
              <span className="font-medium">{PROVIDER_LABELS[provider.provider]}</span>{" "}
              {provider.available ? (
                <span className="font-medium">· available</span>
              ) : (
                <span>· not configured: set {provider.requires.join(" or ")}</span>
              )}
            </span>
          </label>
        ))}
      </fieldset>
      <TextField label="Model id" value={modelId} onChange={setModelId} />
      {chosen === "openai-compatible" ? (
        <TextField
          label="Base URL"
          value={baseURL}
          onChange={setBaseURL}
          placeholder="http://127.0.0.1:11434/v1"
        />
      ) : null}
      <div className="flex justify-end">
        <Button tone="primary" type="submit" disabled={!hasModels || !status?.available || !modelId.trim()}>
          Switch all models
        </Button>
      </div>
    </form>
  );
}

export function ModelsDialog() {
  const store = useStudioStore();
  const open = useStudio((state) => state.dialog === "models");
  const close = () => store.getState().openDialog(null);
  const loaded = useProviders(open);
  return (
    <Dialog open={open} label="Models" onClose={close}>
      <DialogHeader title="Models" onClose={close} />
      <div className="flex w-[34rem] flex-col gap-4 p-4">
        {loaded.state === "loading" ? (
          <p className="text-xs text-muted">Asking the server for its providers…</p>
        ) : null}
        {loaded.state === "failed" ? (
          <p role="alert" className="text-xs text-danger">
            Could not load the providers: {loaded.message}
          </p>
        ) : null}
        {loaded.state === "ready" ? (
          <>
            <DemoNotice providers={loaded.providers} />
            <section aria-label="This project's models" className="flex flex-col gap-1">
              <h3 className="text-xs font-semibold">This project's models</h3>
              <ProjectModels />
            </section>
            <SwitchForm providers={loaded.providers} onSwitched={close} />
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
