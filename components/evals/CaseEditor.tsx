"use client";
// A case in a dialog, edited in a form or as JSON (the same value: switching tabs carries the edits
// over, and JSON that does not parse keeps you on the JSON tab with the field that is wrong named).
// Saving hands the case back; the suite view writes the whole suite (PUT) and reports the answer.
import { useId, useState } from "react";
import { caseToJson, parseCaseJson } from "@/lib/evals/case-json";
import { type Assertion, type EvalCase, fixedTurnsOf, simulatedUserOf } from "@/lib/evals/eval-shapes";
import { Button } from "../ui/Button";
import { Dialog, DialogHeader } from "../ui/Dialog";
import { AssertionEditor } from "./AssertionEditor";
import { ErrorNote } from "./eval-ui";

type Tab = "form" | "json";

const fieldClasses = "rounded-md border border-border bg-surface px-2 py-1 text-sm";

function FixedTurns({ turns, onChange }: { turns: string[]; onChange(turns: string[]): void }) {
  return (
    <ol className="flex flex-col gap-1.5" aria-label="User turns">
      {turns.map((turn, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a turn's position is its identity while editing.
        <li key={index} className="flex items-start gap-2">
          <label htmlFor={`turn-${index}`} className="w-14 shrink-0 pt-1 text-xs text-muted">
            Turn {index + 1}
          </label>
          <textarea
            id={`turn-${index}`}
            rows={1}
            value={turn}
            onChange={(event) => onChange(turns.map((old, at) => (at === index ? event.target.value : old)))}
            className={`${fieldClasses} min-h-8 flex-1 resize-y`}
          />
          <Button
            size="compact"
            aria-label={`Remove turn ${index + 1}`}
            disabled={turns.length === 1}
            onClick={() => onChange(turns.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
        </li>
      ))}
      <li>
        <Button size="compact" onClick={() => onChange([...turns, ""])}>
          Add turn
        </Button>
      </li>
    </ol>
  );
}

function CaseForm({
  value,
  models,
  onChange,
}: {
  value: EvalCase;
  models: string[];
  onChange(next: EvalCase): void;
}) {
  const id = useId();
  const simulated = simulatedUserOf(value.input);
  const turns = fixedTurnsOf(value.input) ?? [];
  const assertions = value.assertions ?? [];
  const setAssertions = (next: Assertion[]) => onChange({ ...value, assertions: next });
  return (
    <div className="flex flex-col gap-4">
      <label htmlFor={`${id}-name`} className="flex flex-col gap-1 text-sm font-medium">
        Name
        <input
          id={`${id}-name`}
          value={value.name}
          onChange={(event) => onChange({ ...value, name: event.target.value })}
          className={`${fieldClasses} font-normal`}
        />
      </label>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">User side</legend>
        <div className="flex gap-4 text-sm">
          <label className="flex items-center gap-1.5">
            <input
              type="radio"
              name={`${id}-side`}
              checked={!simulated}
              onChange={() => onChange({ ...value, input: { messages: turns.length > 0 ? turns : [""] } })}
            />
            Fixed turns
          </label>
          <label className="flex items-center gap-1.5">
            <input
              type="radio"
              name={`${id}-side`}
              checked={Boolean(simulated)}
              onChange={() =>
                onChange({
                  ...value,
                  input: { simulated_user: { prompt: "", model: models[0] ?? "", max_turns: 4 } },
                })
              }
            />
            Simulated user
          </label>
        </div>
        {simulated ? (
          <div className="grid grid-cols-[8rem_1fr] items-center gap-2 text-sm">
            <label htmlFor={`${id}-persona`} className="self-start pt-1 text-xs text-muted">
              Persona prompt
            </label>
            <textarea
              id={`${id}-persona`}
              rows={3}
              value={simulated.prompt}
              placeholder="You are an angry customer whose order arrived broken…"
              onChange={(event) =>
                onChange({
                  ...value,
                  input: { simulated_user: { ...simulated, prompt: event.target.value } },
                })
              }
              className={fieldClasses}
            />
            <label htmlFor={`${id}-model`} className="text-xs text-muted">
              Model
            </label>
            <select
              id={`${id}-model`}
              value={simulated.model}
              onChange={(event) =>
                onChange({ ...value, input: { simulated_user: { ...simulated, model: event.target.value } } })
              }
              className={`${fieldClasses} w-56 font-mono`}
            >
              {models.includes(simulated.model) ? null : (
                <option value={simulated.model}>{simulated.model || "choose…"}</option>
              )}
              {models.map((model) => (
                <option key={model} value={model}>
                  {model}
                </option>
              ))}
            </select>
            <label htmlFor={`${id}-max`} className="text-xs text-muted">
              Most turns
            </label>
            <input
              id={`${id}-max`}
              type="number"
              min={1}
              value={simulated.max_turns ?? ""}
              onChange={(event) =>
                onChange({
                  ...value,
                  input: {
                    simulated_user: {
                      ...simulated,
                      max_turns: event.target.value
                        ? Math.max(1, Math.round(Number(event.target.value)))
                        : undefined,
                    },
                  },
                })
              }
              className={`${fieldClasses} w-24`}
            />
            <label htmlFor={`${id}-stop`} className="text-xs text-muted">
              Stop text
            </label>
            <input
              id={`${id}-stop`}
              value={simulated.stop ?? ""}
              placeholder="optional: a reply containing it ends the chat"
              onChange={(event) =>
                onChange({
                  ...value,
                  input: { simulated_user: { ...simulated, stop: event.target.value || undefined } },
                })
              }
              className={`${fieldClasses} w-72`}
            />
          </div>
        ) : (
          <FixedTurns turns={turns} onChange={(next) => onChange({ ...value, input: { messages: next } })} />
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Assertions</legend>
        {assertions.length === 0 ? (
          <p className="text-sm text-muted">
            None yet: the case passes when the conversation ends without an error (and the suite's own
            assertions hold). Add what its result must show.
          </p>
        ) : null}
        <ul className="flex flex-col gap-1.5" aria-label="Case assertions">
          {assertions.map((assertion, index) => (
            <AssertionEditor
              // biome-ignore lint/suspicious/noArrayIndexKey: an assertion's position is its identity while editing.
              key={index}
              index={index}
              assertion={assertion}
              models={models}
              onChange={(next) => setAssertions(assertions.map((old, at) => (at === index ? next : old)))}
              onRemove={() => setAssertions(assertions.filter((_, at) => at !== index))}
            />
          ))}
        </ul>
        <div>
          <Button
            size="compact"
            onClick={() =>
              setAssertions([...assertions, { type: "contains", value: "", target: "final_reply" }])
            }
          >
            Add assertion
          </Button>
        </div>
      </fieldset>
    </div>
  );
}

export function CaseEditor({
  open,
  initial,
  title,
  models,
  onClose,
  onSave,
}: {
  open: boolean;
  initial: EvalCase | null;
  title: string;
  models: string[];
  onClose(): void;
  /** Resolves with an error message when the save failed (the dialog stays open), else null. */
  onSave(next: EvalCase): Promise<string | null>;
}) {
  return (
    <Dialog open={open} label={title} onClose={onClose} className="w-[min(56rem,calc(100vw-2rem))]">
      {initial ? (
        <CaseEditorBody
          key={initial.id ?? initial.name}
          initial={initial}
          title={title}
          models={models}
          onClose={onClose}
          onSave={onSave}
        />
      ) : null}
    </Dialog>
  );
}

function CaseEditorBody({
  initial,
  title,
  models,
  onClose,
  onSave,
}: {
  initial: EvalCase;
  title: string;
  models: string[];
  onClose(): void;
  onSave(next: EvalCase): Promise<string | null>;
}) {
  const [tab, setTab] = useState<Tab>("form");
  const [value, setValue] = useState<EvalCase>(initial);
  const [jsonText, setJsonText] = useState(() => caseToJson(initial));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const jsonId = useId();

  /** The value the open tab holds, or null (with the problem shown) when its JSON does not parse. */
  function current(): EvalCase | null {
    if (tab === "form") return value;
    const parsed = parseCaseJson(jsonText);
    if (!parsed.ok) {
      setProblem(parsed.message);
      return null;
    }
    return { ...parsed.value, ...(initial.id ? { id: initial.id } : {}) };
  }

  function switchTo(next: Tab) {
    if (next === tab) return;
    const now = current();
    if (!now) return;
    setProblem(null);
    setValue(now);
    setJsonText(caseToJson(now));
    setTab(next);
  }

  async function save() {
    const now = current();
    if (!now) return;
    if (!now.name.trim()) {
      setProblem("name: give the case a name.");
      return;
    }
    setSaving(true);
    setProblem(null);
    const failed = await onSave(now);
    setSaving(false);
    if (failed) setProblem(failed);
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <DialogHeader title={title} onClose={onClose} />
      <div role="tablist" aria-label="Edit as" className="flex gap-1 border-b border-border px-4 pt-2">
        {(["form", "json"] as const).map((candidate) => (
          <button
            key={candidate}
            type="button"
            role="tab"
            aria-selected={tab === candidate}
            onClick={() => switchTo(candidate)}
            className={`-mb-px rounded-t-md border px-3 py-1 text-sm ${tab === candidate ? "border-border border-b-surface bg-surface font-medium" : "border-transparent text-muted hover:text-text"}`}
          >
            {candidate === "form" ? "Form" : "JSON"}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        aria-label={tab === "form" ? "Form" : "JSON"}
        className="max-h-[60vh] overflow-auto p-4"
      >
        {tab === "form" ? (
          <CaseForm value={value} models={models} onChange={setValue} />
        ) : (
          <label htmlFor={jsonId} className="flex flex-col gap-1 text-sm font-medium">
            The case as JSON (shared/API.md “Evaluations”)
            <textarea
              id={jsonId}
              value={jsonText}
              spellCheck={false}
              rows={18}
              onChange={(event) => setJsonText(event.target.value)}
              className={`${fieldClasses} font-mono text-xs font-normal`}
            />
          </label>
        )}
      </div>
      <div className="flex items-center gap-2 border-t border-border px-4 py-2">
        <div className="min-w-0 flex-1">{problem ? <ErrorNote>{problem}</ErrorNote> : null}</div>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" tone="primary" disabled={saving}>
          {saving ? "Saving…" : "Save case"}
        </Button>
      </div>
    </form>
  );
}
