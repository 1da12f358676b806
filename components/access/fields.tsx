// Labelled inputs (a hint below, read as the field's description) and the error line shared by the
// account forms (setup, sign-in, users, keys, credentials).
import { type InputHTMLAttributes, type ReactNode, useId } from "react";

export const INPUT_CLASSES =
  "h-8 rounded-md border border-border bg-surface px-2 outline-none focus:border-accent disabled:opacity-60";

export function TextField({
  label,
  hint,
  id,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={inputId} className="font-medium">
        {label}
      </label>
      <input
        id={inputId}
        aria-describedby={hint ? `${inputId}-hint` : undefined}
        className={INPUT_CLASSES}
        {...props}
      />
      {hint ? (
        <span id={`${inputId}-hint`} className="text-xs text-muted">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-sm text-danger">
      {message}
    </p>
  );
}

export function describeAccessError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
