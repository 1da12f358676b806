"use client";
// "Replay…" on a root thread's page (issue 21 "Replay"): re-run this run's inputs with every model
// call answered from its recording, against the latest saved definitions (to see where an edit makes
// the run diverge) or the version it ran with (to reproduce it). On success the caller navigates.
import { useId, useState } from "react";
import { Button } from "../ui/Button";
import { Dialog, DialogHeader } from "../ui/Dialog";

export type ReplayVersion = "latest" | "same";

export function ReplayDialog({
  open,
  onClose,
  ranWithVersion,
  replay,
}: {
  open: boolean;
  onClose(): void;
  /** The project version the run used. */
  ranWithVersion: number;
  /** Starts the replay and navigates; rejects with a message to show. */
  replay(fromVersion: ReplayVersion): Promise<void>;
}) {
  const name = useId();
  const [choice, setChoice] = useState<ReplayVersion>("latest");
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

  const options: { value: ReplayVersion; title: string; detail: string }[] = [
    {
      value: "latest",
      title: "Against the latest saved definitions",
      detail:
        "Checks this run against your edits: the first model call whose request changed is reported as a divergence, and the real model answers from there.",
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
              className={`flex cursor-pointer gap-2 rounded-md border px-3 py-2 ${
                choice === option.value ? "border-accent bg-accent/5" : "border-border"
              }`}
            >
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={choice === option.value}
                onChange={() => setChoice(option.value)}
                className="mt-1"
              />
              <span>
                <span className="block font-medium">{option.title}</span>
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
