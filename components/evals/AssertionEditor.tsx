"use client";
// One assertion in the case form: its type and the fields that type reads (shared/API.md
// "Evaluations"). Structured values (tool arguments, a JSON schema) are edited as JSON text and only
// applied once they parse; the JSON tab edits everything else.
import { useId, useState } from "react";
import { describeAssertion } from "@/lib/evals/describe";
import { ASSERTION_TYPES, type Assertion } from "@/lib/evals/eval-shapes";
import { IconButton } from "../ui/IconButton";

const TEXT_TYPES = new Set(["contains", "not_contains", "equals", "regex"]);
const LIMIT_TYPES = new Set(["max_turns", "max_tokens", "max_cost_usd", "max_latency_ms"]);

const inputClasses = "h-7 rounded border border-border bg-surface px-2 text-xs";

/** The fields a fresh assertion of `type` starts with. */
function freshAssertion(type: string): Assertion {
  if (TEXT_TYPES.has(type)) return { type, value: "", target: "final_reply" };
  if (LIMIT_TYPES.has(type)) return { type, value: type === "max_cost_usd" ? 0.01 : 5 };
  switch (type) {
    case "tool_called":
      return { type, name: "", min: 1 };
    case "subagent_spawned":
      return { type, agent: "", min: 1 };
    case "status":
      return { type, value: "idle" };
    case "json_schema":
      return { type, schema: { type: "object" }, target: "final_reply" };
    case "judge":
      return { type, model: "", rubric: "", threshold: 0.7 };
    case "code":
      return { type, module: "" };
    default:
      return { type };
  }
}

function Field({ label, children }: { label: string; children: (id: string) => React.ReactNode }) {
  const id = useId();
  return (
    <span className="flex items-center gap-1">
      <label htmlFor={id} className="text-xs text-muted">
        {label}
      </label>
      {children(id)}
    </span>
  );
}

function JsonField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const [text, setText] = useState(() => JSON.stringify(value ?? {}));
  const [bad, setBad] = useState(false);
  return (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          value={text}
          aria-invalid={bad || undefined}
          title={bad ? "Not JSON yet: the last valid value is kept." : undefined}
          onChange={(event) => {
            setText(event.target.value);
            try {
              onChange(JSON.parse(event.target.value));
              setBad(false);
            } catch {
              setBad(true);
            }
          }}
          className={`${inputClasses} w-56 font-mono ${bad ? "border-danger" : ""}`}
        />
      )}
    </Field>
  );
}

const optionalNumber = (text: string) => (text.trim() === "" ? undefined : Number(text));

export function AssertionEditor({
  assertion,
  models,
  onChange,
  onRemove,
  index,
}: {
  assertion: Assertion;
  models: string[];
  onChange(next: Assertion): void;
  onRemove(): void;
  index: number;
}) {
  const set = (patch: Partial<Assertion>) => onChange({ ...assertion, ...patch });
  const type = assertion.type;
  return (
    <li
      className="flex flex-wrap items-center gap-2 rounded-md border border-border px-2 py-1.5"
      aria-label={`Assertion ${index + 1}: ${describeAssertion(assertion)}`}
      data-testid="assertion-editor"
    >
      <Field label="Type">
        {(id) => (
          <select
            id={id}
            value={type}
            onChange={(event) => onChange(freshAssertion(event.target.value))}
            className={`${inputClasses} font-mono`}
          >
            {ASSERTION_TYPES.map((candidate) => (
              <option key={candidate} value={candidate}>
                {candidate}
              </option>
            ))}
          </select>
        )}
      </Field>
      {TEXT_TYPES.has(type) || type === "status" ? (
        <Field label={type === "regex" ? "Pattern" : type === "status" ? "Status" : "Text"}>
          {(id) => (
            <input
              id={id}
              value={typeof assertion.value === "string" ? assertion.value : ""}
              onChange={(event) => set({ value: event.target.value })}
              className={`${inputClasses} w-56`}
            />
          )}
        </Field>
      ) : null}
      {TEXT_TYPES.has(type) || type === "json_schema" ? (
        <Field label="On">
          {(id) => (
            <select
              id={id}
              value={assertion.target ?? "final_reply"}
              onChange={(event) => set({ target: event.target.value as Assertion["target"] })}
              className={inputClasses}
            >
              <option value="final_reply">final reply</option>
              <option value="transcript">transcript</option>
            </select>
          )}
        </Field>
      ) : null}
      {LIMIT_TYPES.has(type) ? (
        <Field label="At most">
          {(id) => (
            <input
              id={id}
              type="number"
              min={0}
              step="any"
              value={typeof assertion.value === "number" ? assertion.value : ""}
              onChange={(event) => set({ value: optionalNumber(event.target.value) })}
              className={`${inputClasses} w-24`}
            />
          )}
        </Field>
      ) : null}
      {type === "tool_called" || type === "subagent_spawned" ? (
        <>
          <Field label={type === "tool_called" ? "Tool" : "Agent"}>
            {(id) => (
              <input
                id={id}
                value={(type === "tool_called" ? assertion.name : assertion.agent) ?? ""}
                onChange={(event) =>
                  set(type === "tool_called" ? { name: event.target.value } : { agent: event.target.value })
                }
                className={`${inputClasses} w-40 font-mono`}
              />
            )}
          </Field>
          <Field label="Min">
            {(id) => (
              <input
                id={id}
                type="number"
                min={0}
                value={assertion.min ?? ""}
                onChange={(event) => set({ min: optionalNumber(event.target.value) })}
                className={`${inputClasses} w-16`}
              />
            )}
          </Field>
          <Field label="Max">
            {(id) => (
              <input
                id={id}
                type="number"
                min={0}
                value={assertion.max ?? ""}
                onChange={(event) => set({ max: optionalNumber(event.target.value) })}
                className={`${inputClasses} w-16`}
              />
            )}
          </Field>
          {type === "tool_called" ? (
            <JsonField
              label="Arguments (partial)"
              value={assertion.args ?? {}}
              onChange={(args) => set({ args: args as Assertion["args"] })}
            />
          ) : null}
        </>
      ) : null}
      {type === "json_schema" ? (
        <JsonField label="Schema" value={assertion.schema} onChange={(schema) => set({ schema })} />
      ) : null}
      {type === "judge" ? (
        <>
          <Field label="Model">
            {(id) => (
              <select
                id={id}
                value={assertion.model ?? ""}
                onChange={(event) => set({ model: event.target.value })}
                className={`${inputClasses} font-mono`}
              >
                <option value="">choose…</option>
                {models.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Rubric">
            {(id) => (
              <input
                id={id}
                value={assertion.rubric ?? ""}
                onChange={(event) => set({ rubric: event.target.value })}
                className={`${inputClasses} w-72`}
              />
            )}
          </Field>
          <Field label="Pass at">
            {(id) => (
              <input
                id={id}
                type="number"
                min={0}
                max={1}
                step={0.05}
                value={assertion.threshold ?? ""}
                onChange={(event) => set({ threshold: optionalNumber(event.target.value) })}
                className={`${inputClasses} w-20`}
              />
            )}
          </Field>
        </>
      ) : null}
      {type === "code" ? (
        <Field label="Module (extensions/evals/…)">
          {(id) => (
            <input
              id={id}
              value={assertion.module ?? ""}
              onChange={(event) => set({ module: event.target.value })}
              className={`${inputClasses} w-48 font-mono`}
            />
          )}
        </Field>
      ) : null}
      <span className="ml-auto">
        <IconButton icon="✕" label={`Remove assertion ${index + 1}`} onClick={onRemove} />
      </span>
    </li>
  );
}
