"use client";
// Run: saves unsaved changes, starts a thread on the selected (or first) ai_human agent with an
// optional first message, and opens its live view.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/Button";
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
  const [open, setOpen] = useState(false);
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

  return (
    <div className="relative">
      <Button
        tone="primary"
        aria-expanded={open}
        disabled={!target.ok}
        title={target.ok ? `Run ${target.agent}` : target.reason}
        onClick={() => setOpen(!open)}
      >
        Run
      </Button>
      {open && target.ok ? (
        <form
          aria-label="Run"
          className="absolute right-0 z-20 mt-1 flex w-72 flex-col gap-1.5 rounded border border-border bg-surface p-2 text-xs shadow"
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          <label className="flex flex-col gap-1">
            <span>First message</span>
            <input
              className="rounded border border-border bg-surface px-2 py-1"
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              placeholder="Optional"
            />
          </label>
          <span className="text-muted">Agent: {target.agent}</span>
          <Button type="submit" tone="primary" disabled={busy}>
            Start run
          </Button>
        </form>
      ) : null}
    </div>
  );
}
