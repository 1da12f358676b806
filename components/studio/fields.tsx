"use client";
// Labelled inspector inputs. Each shows the live compile's messages for its field underneath (and,
// for text that must parse first — lists, env maps, JSON — its own parse error), tied to the input
// with aria-invalid and aria-describedby, so the user sees what is wrong while typing.
// `field` names the spec field a control edits (`agent.icon`, `prompt.reasoning.effort`); it is
// rendered as data-field so a test can check that every field of every definition has a control.
import { type ReactNode, useId, useState } from "react";

function FieldErrors({ id, messages }: { id: string; messages: string[] }) {
  if (!messages.length) return null;
  return (
    <ul id={id} className="text-[11px] text-danger">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

const INPUT =
  "w-full rounded border border-border bg-surface px-2 py-1 text-xs aria-[invalid=true]:border-danger";

interface FieldProps<Value> {
  /** The spec field this control edits, e.g. `agent.sideA.maxSteps` → "agent.side.maxSteps". */
  field?: string;
  label: string;
  value: Value;
  onChange(value: Value): void;
  errors?: string[];
  hint?: string;
}

/** The label, the control and its messages; hands the control the ids and aria attributes to use. */
function LabelledField({
  field,
  label,
  errors,
  hint,
  children,
}: {
  field?: string;
  label: string;
  errors: string[];
  hint?: string;
  children(control: {
    id: string;
    "aria-invalid": boolean;
    "aria-describedby": string | undefined;
    className: string;
  }): ReactNode;
}) {
  const id = useId();
  const describedBy = [errors.length ? `${id}-errors` : "", hint ? `${id}-hint` : ""].filter(Boolean);
  return (
    <div className="flex flex-col gap-0.5" data-field={field}>
      <label htmlFor={id} className="text-[11px] font-medium text-muted">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": errors.length > 0,
        "aria-describedby": describedBy.length ? describedBy.join(" ") : undefined,
        className: INPUT,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="text-[10px] text-muted">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-errors`} messages={errors} />
    </div>
  );
}

export function TextField({
  field,
  label,
  value,
  onChange,
  errors = [],
  hint,
  multiline = false,
  placeholder,
}: FieldProps<string> & { multiline?: boolean; placeholder?: string }) {
  return (
    <LabelledField field={field} label={label} errors={errors} hint={hint}>
      {(control) =>
        multiline ? (
          <textarea
            {...control}
            rows={5}
            value={value}
            placeholder={placeholder}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            {...control}
            value={value}
            placeholder={placeholder}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </LabelledField>
  );
}

/** A number input; an empty box means "not set" (`undefined`). `step="any"` for prices. */
export function NumberField({
  field,
  label,
  value,
  onChange,
  errors = [],
  hint,
  step = "1",
}: FieldProps<number | undefined> & { step?: "1" | "any" }) {
  return (
    <LabelledField field={field} label={label} errors={errors} hint={hint}>
      {(control) => (
        <input
          {...control}
          type="number"
          step={step}
          value={value ?? ""}
          onChange={(event) => onChange(event.target.value === "" ? undefined : Number(event.target.value))}
        />
      )}
    </LabelledField>
  );
}

/**
 * An optional boolean: "default" leaves the field out (the spec's default applies), yes/no store it.
 * A select rather than a checkbox, so a definition that spells out the default keeps it.
 */
export function OptionalBooleanField({
  field,
  label,
  value,
  onChange,
  errors = [],
  hint,
  defaultValue,
}: FieldProps<boolean | undefined> & { defaultValue: boolean }) {
  const current = value === undefined ? "" : value ? "yes" : "no";
  return (
    <LabelledField field={field} label={label} errors={errors} hint={hint}>
      {(control) => (
        <select
          {...control}
          value={current}
          onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value === "yes")}
        >
          <option value="">Default ({defaultValue ? "yes" : "no"})</option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </select>
      )}
    </LabelledField>
  );
}

export function SelectField({
  field,
  label,
  value,
  onChange,
  options,
  errors = [],
  hint,
}: FieldProps<string> & { options: readonly { value: string; label: string }[] }) {
  // A value written elsewhere (code pane, import) that is not among the options stays visible.
  const shown =
    value === "" || options.some((option) => option.value === value)
      ? options
      : [...options, { value, label: `${value} (not found)` }];
  return (
    <LabelledField field={field} label={label} errors={errors} hint={hint}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          {shown.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

/**
 * Text the user types that must parse before it becomes a value (a list, an env map, JSON). The
 * draft is kept while it does not parse, with the parse error shown; a change from elsewhere (undo,
 * the code pane) replaces the draft.
 */
function ParsedTextField<Value>({
  field,
  label,
  value,
  onChange,
  errors = [],
  hint,
  format,
  parse,
  rows,
}: FieldProps<Value | undefined> & {
  format(value: Value | undefined): string;
  parse(text: string): { ok: true; value: Value | undefined } | { ok: false; message: string };
  rows?: number;
}) {
  const formatted = format(value);
  const [draft, setDraft] = useState(formatted);
  const [shownValue, setShownValue] = useState(formatted);
  const [parseError, setParseError] = useState<string | null>(null);
  if (formatted !== shownValue) {
    setShownValue(formatted);
    setDraft(formatted);
    setParseError(null);
  }
  const change = (text: string) => {
    setDraft(text);
    const parsed = parse(text);
    if (!parsed.ok) {
      setParseError(parsed.message);
      return;
    }
    setParseError(null);
    setShownValue(format(parsed.value));
    onChange(parsed.value);
  };
  const messages = parseError ? [parseError, ...errors] : errors;
  return (
    <LabelledField field={field} label={label} errors={messages} hint={hint}>
      {(control) =>
        rows ? (
          <textarea
            {...control}
            rows={rows}
            spellCheck={false}
            className={`${control.className} font-mono`}
            value={draft}
            onChange={(event) => change(event.target.value)}
          />
        ) : (
          <input {...control} value={draft} onChange={(event) => change(event.target.value)} />
        )
      }
    </LabelledField>
  );
}

/** A list of names, comma-separated; empty means "not set". */
export function ListField(props: FieldProps<string[] | undefined>) {
  return (
    <ParsedTextField<string[]>
      {...props}
      hint={props.hint ?? "Comma-separated."}
      format={(list) => (list ?? []).join(", ")}
      parse={(text) => {
        const items = text
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean);
        return { ok: true, value: items.length ? items : undefined };
      }}
    />
  );
}

/** A string → string map written one `NAME=value` per line; empty means "not set". */
export function KeyValueField(props: FieldProps<Record<string, string> | undefined>) {
  return (
    <ParsedTextField<Record<string, string>>
      {...props}
      rows={3}
      hint={props.hint ?? "One NAME=value per line."}
      format={(map) =>
        Object.entries(map ?? {})
          .map(([key, value]) => `${key}=${value}`)
          .join("\n")
      }
      parse={(text) => {
        const entries: [string, string][] = [];
        const lines = text.split("\n");
        for (const [index, line] of lines.entries()) {
          if (line.trim() === "") continue;
          const equals = line.indexOf("=");
          if (equals <= 0) return { ok: false, message: `Line ${index + 1}: write NAME=value.` };
          entries.push([line.slice(0, equals).trim(), line.slice(equals + 1)]);
        }
        return { ok: true, value: entries.length ? Object.fromEntries(entries) : undefined };
      }}
    />
  );
}

/** Any JSON value of the expected shape; an empty box means "not set". */
export function JsonField<Value>({
  expect,
  ...props
}: FieldProps<Value | undefined> & { expect: "object" | "array" }) {
  return (
    <ParsedTextField<Value>
      {...props}
      rows={6}
      format={(value) => (value === undefined ? "" : JSON.stringify(value, null, 2))}
      parse={(text) => {
        if (text.trim() === "") return { ok: true, value: undefined };
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          return { ok: false, message: `Not valid JSON yet: ${(error as Error).message}` };
        }
        const isArray = Array.isArray(value);
        const isObject = typeof value === "object" && value !== null && !isArray;
        if (expect === "array" ? !isArray : !isObject) {
          return {
            ok: false,
            message: `Write a JSON ${expect === "array" ? "array [ … ]" : "object { … }"}.`,
          };
        }
        return { ok: true, value: value as Value };
      }}
    />
  );
}

export function FieldGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-border p-2">
      <legend className="px-1 text-[11px] font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

/** A small text button inside the inspector (add a part, remove side B …). */
export function InlineButton({ onClick, children }: { onClick(): void; children: ReactNode }) {
  return (
    <button type="button" className="text-left text-xs underline" onClick={onClick}>
      {children}
    </button>
  );
}
