"use client";
// Labelled inspector inputs. Each shows the live compile's messages for its field underneath, so
// the user sees what is wrong while typing.
import { useId } from "react";

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
  label: string;
  value: Value;
  onChange(value: Value): void;
  errors?: string[];
}

export function TextField({
  label,
  value,
  onChange,
  errors = [],
  multiline = false,
  placeholder,
}: FieldProps<string> & { multiline?: boolean; placeholder?: string }) {
  const id = useId();
  const props = {
    id,
    value,
    placeholder,
    "aria-invalid": errors.length > 0,
    "aria-describedby": errors.length ? `${id}-errors` : undefined,
    className: INPUT,
  };
  return (
    <div className="flex flex-col gap-0.5">
      <label htmlFor={id} className="text-[11px] font-medium text-muted">
        {label}
      </label>
      {multiline ? (
        <textarea {...props} rows={5} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...props} onChange={(event) => onChange(event.target.value)} />
      )}
      <FieldErrors id={`${id}-errors`} messages={errors} />
    </div>
  );
}

/** A whole-number input; an empty box means "not set" (`undefined`). */
export function NumberField({ label, value, onChange, errors = [] }: FieldProps<number | undefined>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-0.5">
      <label htmlFor={id} className="text-[11px] font-medium text-muted">
        {label}
      </label>
      <input
        id={id}
        type="number"
        value={value ?? ""}
        aria-invalid={errors.length > 0}
        className={INPUT}
        onChange={(event) => onChange(event.target.value === "" ? undefined : Number(event.target.value))}
      />
      <FieldErrors id={`${id}-errors`} messages={errors} />
    </div>
  );
}

export function CheckboxField({ label, value, onChange, errors = [] }: FieldProps<boolean>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-0.5">
      <div className="flex items-center gap-2">
        <input id={id} type="checkbox" checked={value} onChange={(event) => onChange(event.target.checked)} />
        <label htmlFor={id} className="text-xs">
          {label}
        </label>
      </div>
      <FieldErrors id={`${id}-errors`} messages={errors} />
    </div>
  );
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  errors = [],
}: FieldProps<string> & { options: readonly { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-0.5">
      <label htmlFor={id} className="text-[11px] font-medium text-muted">
        {label}
      </label>
      <select
        id={id}
        value={value}
        aria-invalid={errors.length > 0}
        className={INPUT}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldErrors id={`${id}-errors`} messages={errors} />
    </div>
  );
}

export function FieldGroup({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-border p-2">
      <legend className="px-1 text-[11px] font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}
