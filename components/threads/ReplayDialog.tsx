"use client";
// "Replay…" on a root thread's page (issue 21 "Replay"): re-run this run's inputs with every model
// call answered from its recording, against the latest saved definitions (to see where an edit makes
// the run diverge) or the version it ran with (to reproduce it). When the latest saved version has no
// agent of the run's name (a template applied since), that choice is disabled with the reason in
// words and the dialog starts on the version it ran with. On success the caller navigates.
import { useId, useState } from "react";
import { Button } from "../ui/Button";
import { Dialog, DialogHeader } from "../ui/Dialog";

export type ReplayVersion = "latest" | "same";

/** What the latest saved definitions offer a replay of this run (`runtime.replays.latestOffer`). */
export interface LatestReplayOffer {
  latestVersion: number;
  /** The agent the run started with. */
  agentId: string;
  latestHasAgent: boolean;
}

export function ReplayDialog({
  open,
  onClose,
  ranWithVersion,
  latest = null,
  replay,
}: {
  open: boolean;
  onClose(): void;
  /** The project version the run used. */
  ranWithVersion: number;
  /** The latest saved version and whether it has the run's agent; unknown (null) offers both. */
  latest?: LatestReplayOffer | null;
  /** Starts the replay and navigates; rejects with a message to show. */
  replay(fromVersion: ReplayVersion): Promise<void>;
}) {
  const name = useId();
  const latestUnavailable = latest !== null && !latest.latestHasAgent;
  const [choice, setChoice] = useState<ReplayVersion>(latestUnavailable ? "same" : "latest");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await replay(choice);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  }

  const options: { value: ReplayVersion; title: string; detail: string; disabled?: boolean }[] = [
    {
      value: "latest",
      title: latest
        ? `Against the latest saved definitions (v${latest.latestVersion})`
        : "Against the latest saved definitions",
      detail: latestUnavailable
        ? `Not available: the latest saved version has no agent ${latest.agentId}, which this run started with.`
        : "Checks this run against your edits: the first model call whose request changed is reported as a divergence, and the real model answers from there.",
      disabled: latestUnavailable,
    },
    {
      value: "same",
      title: `Against the version it ran with (v${ranWithVersion})`,
      detail: "Reproduces the run message for message, without calling a model.",
    },
  ];

  return (
    <Dialog open={open} label="Replay this run" onClose={onClose} className="w-[36rem]">
      <DialogHeader title="Replay this run" onClose={onClose} />
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-3 p-4">
        <p>
          A new thread posts this run's messages again, one turn at a time, and answers every model call of
          the whole tree from the recorded responses while the requests still match. Tools run again. This
          thread stays exactly as it is.
        </p>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-medium">Definitions to replay with</legend>
          {options.map((option) => (
            <label
              key={option.value}
              data-testid={`replay-choice-${option.value}`}
              className={`flex gap-2 rounded-md border px-3 py-2 ${
                option.disabled ? "cursor-not-allowed" : "cursor-pointer"
              } ${choice === option.value ? "border-accent bg-accent/5" : "border-border"}`}
            >
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={choice === option.value}
                disabled={option.disabled}
                onChange={() => setChoice(option.value)}
                className="mt-1"
              />
              <span>
                <span className={`block font-medium ${option.disabled ? "text-muted" : ""}`}>
                  {option.title}
                </span>
                <span className="block text-sm text-muted">{option.detail}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {error ? (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-danger">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" tone="primary" disabled={busy}>
            {busy ? "Starting…" : "Replay"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
