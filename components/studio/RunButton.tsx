"use client";
// Run: saves unsaved changes, starts a thread on the selected (or first) ai_human agent with an
// optional first message, and opens its live view.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { ICONS } from "@/components/ui/icons";
import { Popover } from "@/components/ui/Popover";
import { createApiClient } from "@/lib/api/client";
import { runTarget } from "@/lib/studio/run-target";
import { soleSelected } from "@/lib/studio/selection";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { saveDocument } from "./save-document";
import { useCompiled } from "./useCompiled";

export function RunButton({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const router = useRouter();
  const compiled = useCompiled();
  const selection = useStudio((state) => state.selection);
  const unsaved = useStudio((state) => state.history.present !== state.savedDocument);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const selected = soleSelected(selection);
  const target = runTarget(compiled.graph, compiled, selected?.kind === "node" ? selected.id : null);

  async function run() {
    if (!target.ok) return;
    setBusy(true);
    try {
      const { savedDocument } = store.getState();
      if (savedDocument !== store.getState().history.present) {
        const saved = await saveDocument(store, projectId);
        if (!saved) return;
      }
      store.getState().setStatus({ tone: "info", text: `Starting ${target.agent}…` });
      const created = await createApiClient().threads.create({
        projectId,
        agentId: target.agent,
        message: message.trim() || undefined,
      });
      router.push(`/threads/${created.threadId}`);
    } catch (error) {
      store.getState().setStatus({ tone: "error", text: `Not started: ${(error as Error).message}` });
    } finally {
      setBusy(false);
    }
  }

  if (!target.ok) {
    return (
      <Button tone="primary" disabled title={target.reason}>
        {ICONS.play}
        Run
      </Button>
    );
  }
  return (
    <Popover
      label="Run"
      placement="bottom-end"
      className="w-80 p-3"
      trigger={(props) => (
        <Button tone="primary" title={`Run ${target.agent}`} {...props}>
          {ICONS.play}
          Run
        </Button>
      )}
    >
      <form
        aria-label="Run"
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <label className="flex flex-col gap-1">
          <span className="font-medium">First message</span>
          <input
            className="h-8 rounded-md border border-border bg-surface px-2 text-sm"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            placeholder="Optional"
          />
        </label>
        <span className="text-muted">
          Agent: <span className="font-mono text-text">{target.agent}</span>
          {unsaved ? " · unsaved changes are saved first" : null}
        </span>
        <Button type="submit" tone="primary" disabled={busy}>
          {busy ? "Starting…" : "Start run"}
        </Button>
      </form>
    </Popover>
  );
}
